"""The one error type a person sees: ``path:line: what is wrong; what to do``."""

from __future__ import annotations


class UserError(Exception):
    """Bad input or environment: reported as one line, exit status 2, no traceback."""

    exit_code = 2

    def __init__(self, message: str, path: str | None = None, line: int | None = None):
        self.message = message
        self.path = str(path) if path is not None else None
        self.line = line
        super().__init__(self.format())

    def format(self) -> str:
        if self.path is None:
            return self.message
        if self.line is None:
            return f"{self.path}: {self.message}"
        return f"{self.path}:{self.line}: {self.message}"


class Interrupted(UserError):
    """Ctrl-C in the middle of writing: the message says exactly what was written."""

    exit_code = 130
