"""Plain lines: `choice answer` for dumb terminals and pipes, one prompt per line."""
