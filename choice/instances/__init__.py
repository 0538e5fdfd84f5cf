"""Several portal instances on one PostgreSQL database: hearing the others' changes
(LISTEN/NOTIFY) and keeping this instance's waiters, sockets and timers in step.
"""
