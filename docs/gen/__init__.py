"""Generators of the docs' generated parts: each module's `render(arg)` returns Markdown
for a `<!-- generated: NAME ARG -->` marker (filled in by `docs/hooks.py`)."""
