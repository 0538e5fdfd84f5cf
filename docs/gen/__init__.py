"""Generators of the docs' reference parts: each module has `render(arg: str) -> str`, the
Markdown that `docs/hooks.py` puts in place of a page's `<!-- generated: NAME ARG -->` line."""
