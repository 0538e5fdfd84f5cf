"""One run of `choice answer <id>`: `session.py` runs the UI, `actions.py` carries out what
the human decided through the portal, `follow.py` follows its stream, `endings.py` says how it
ended; `questions.py` is the same for several questions in one interaction."""
