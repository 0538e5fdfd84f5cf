"""The Litestar application: JSON API, server-sent events, health, and (later) pages."""
