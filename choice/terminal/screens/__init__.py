"""The curses screens: what each stage of `choice answer` draws."""
