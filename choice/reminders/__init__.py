"""Reminders of a question still waiting for its person: nobody opened it, or its deadline is near."""
