"""What each key does, one module per stage of the terminal UI: `choose` (the question and
its confirmation), `edit` (a line being typed), `widen`, `review` (the write-back) and
`settings`; `press` hands a key to the stage on screen. Each imports the state and the leaf
`keys.py`, never another stage's state."""
