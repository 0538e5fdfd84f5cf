"""What pages show: view models built from records, the templating environment, asset bundles,
the list cache.

Used by `pages` and `live`; imports neither them nor `api`.
"""
