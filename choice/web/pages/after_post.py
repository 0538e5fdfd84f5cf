"""Post/redirect/get for the owner's forms posted without script.

A form post that does not end the question (a refused answer with its errors, the review
step, a refused decision, "already answered elsewhere") used to answer with the page itself,
at the form's URL (`/choice/<id>/submit`): a reload there asked to post again, or found no
page. Now what the post would show is kept here under a random key, and the browser goes
to the question's own URL with `?shown=<key>` (303), whose GET shows it again: the form as
typed, its errors, the step it was on. A reload shows the same; Back is the question.

Kept in memory, the newest `KEPT` only (a page nobody reloads costs nothing for long): a key
that is gone, or one kept for another question or for a question that has moved on since
(answered, widened), shows the question as it stands.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

KEPT = 64
"""How many posts are kept for their reload: a person reloads the page they just got."""


@dataclass(frozen=True)
class PostShown:
    """What one post showed: its status, the owner's view's options (the form as typed,
    errors, step, notice), and the rest of the page's context."""

    interaction_id: str
    status_then: str
    """The question's status when it was shown: once it moves on, the post is stale."""
    code: int
    view: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict)


class KeptPosts:
    """The newest posts' pages, by their random key."""

    def __init__(self, kept: int = KEPT) -> None:
        self._kept = kept
        self._posts: OrderedDict[str, PostShown] = OrderedDict()

    def keep(self, post: PostShown) -> str:
        key = secrets.token_urlsafe(12)
        self._posts[key] = post
        while len(self._posts) > self._kept:
            self._posts.popitem(last=False)
        return key

    def shown(self, key: str | None, interaction_id: str, status: str) -> PostShown | None:
        """The post kept under `key`, if it is this question's and still current."""
        post = self._posts.get(key) if key else None
        if post is None or post.interaction_id != interaction_id or post.status_then != status:
            return None
        return post
