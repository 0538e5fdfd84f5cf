"""Which files on this machine hold secrets, by where they lie and what they are named: the
one list, for every place that may read a local file into a question (an attachment by
`path` through `choice mcp`, the file an agent's edit changes, diffed by `choice hook`). A
question is stored by the portal and shared with the team when widened, so a secret is
never read into one, even when the person could read it.

Standard library only, and no filesystem access: both callers run at an agent's every call.
"""

from __future__ import annotations

import fnmatch
from pathlib import PurePath

SECRET_FOLDERS: tuple[str, ...] = (
    ".ssh", ".gnupg", ".aws", ".azure", ".config/gcloud", ".kube", ".docker",
    ".password-store", ".config/gh")
"""Folders of keys and credentials, wherever they are (`~/.ssh`, or a copy in a project)."""
SYSTEM_FOLDERS: tuple[str, ...] = ("/proc", "/sys", "/dev")
"""The kernel's and devices' files (`/proc/self/environ` holds a process's environment; they
look like empty regular files and read as much more)."""
SECRET_FILES: tuple[str, ...] = (
    ".env", ".env.*", "*.env", ".netrc", "_netrc", ".git-credentials", ".pgpass", ".npmrc",
    ".pypirc", ".htpasswd", "credentials", "id_rsa*", "id_dsa*", "id_ecdsa*", "id_ed25519*",
    "*.pem", "*.key", "*.p12", "*.pfx", "*.jks", "*.keystore", "*.kdbx", "*.gpg", "*.asc")
"""File names of secrets (shell patterns, any case)."""


def secret_reason(path: PurePath) -> str | None:
    """What makes `path` a secret, in words ("is in a .ssh folder"); None if nothing does.
    Check both the path as given and as resolved: a link named `notes.txt` to `.env` is
    `.env`."""
    for folder in SYSTEM_FOLDERS:
        if path.is_relative_to(folder):
            return f"is under {folder}"
    parts = path.parts[:-1]
    for folder in SECRET_FOLDERS:
        wanted = tuple(folder.split("/"))
        if any(parts[i:i + len(wanted)] == wanted for i in range(len(parts))):
            return f"is in a {folder} folder"
    name = path.name.lower()
    for pattern in SECRET_FILES:
        if fnmatch.fnmatchcase(name, pattern):
            return f"is named like a secret ({pattern})"
    return None
