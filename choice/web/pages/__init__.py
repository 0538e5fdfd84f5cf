"""The HTML pages, the form posts behind them (HTMX partials included), and the bundles
of scripts and styles they load.

Must not import `api` or `live`: what they share with this package lives in `views` or
`security`.
"""
