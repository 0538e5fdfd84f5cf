"""The HTML pages and the form posts behind them (HTMX partials included)."""
