"""The terminal side: `choice answer <id>` (curses, or plain lines for pipes and dumb
terminals), talking to the portal over its HTTP API like any other client.

Where things are, from the bottom up (each imports only what is listed before it):
`text.py` (made safe to draw) and `keys.py` (Effect, LineEditor: a leaf); `question.py`,
`team_view.py`, `widening.py`, `write_back.py` (what was loaded, made safe), `answer_files.py`
(the person's own files: a path read from disk, the files attached); `state.py`
(what the UI knows about one question); `key_table.py` (every key a screen takes: the hint
bar's and the help screen's one table); `stages/` (what each key does, one module per
stage; `press.py` picks the stage); `questions.py`, `questions_review.py` (several
questions); `external_editor.py` ($EDITOR), `live.py` (the portal's stream); `calls/` (the
portal calls that keep the UI open); `screens/` (curses drawing); `plain/` (line prompts);
`session/` (one run: its loops, the effects carried out, the stream followed, the
ending); `answer_command.py` (the command).
"""
