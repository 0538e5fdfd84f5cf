"""The HTML pages and the form posts behind them (HTMX partials included).

Must not import `api` or `live`: what they share with this package lives in `views` or
`security`.
"""
