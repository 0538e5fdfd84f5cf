"""The docs site's sources: pages (Markdown), the mkdocs hook and the generators (`gen`)."""
