"""The core: the interaction service, the one completion function, deadlines, waiting, change
events, the extension protocol features plug into, configuration, i18n and the token. It
knows no feature.
"""
