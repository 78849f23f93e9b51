"""Results kept between runs in a JSON file, each under the digests of its inputs.

The digests are SHA-256: the site gate trusts what it kept (:mod:`jaxko.site.state`),
so two different inputs must never share a key. A result is found only under the key of
inputs equal byte for byte to those it came from, and only if this package's source is
the one that computed it. The file is JSON, never pickle (a planted file must not run
code), written atomically; a missing, damaged or foreign file is a cold start, and a
file that cannot be written costs speed, never the result.

A kept result is trusted only if this machine computed it: :func:`refuse_tracked` stops a
run whose kept results git tracks (a pull request can add files under ignored folders
with ``git add -f``, and so plant a verdict, or a pickle for Sphinx to load).
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path
from typing import Iterable

from jaxko.catalogs import write_text_atomic
from jaxko.errors import UserError


def digest_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_digest(path: Path) -> str | None:
    """The file's digest; None when it does not exist or cannot be read."""
    try:
        return digest_bytes(path.read_bytes())
    except OSError:
        return None


_CODE: str | None = None


def code_digest() -> str:
    """The source of the jaxko package: a changed rule or reader invalidates every memo."""
    global _CODE
    if _CODE is None:
        package = Path(__file__).resolve().parent
        digest = hashlib.sha256()
        for path in sorted(package.rglob("*.py")):
            digest.update(str(path.relative_to(package)).encode())
            try:
                digest.update(path.read_bytes())
            except OSError:
                pass
        _CODE = digest.hexdigest()
    return _CODE


class Memo:
    """One memo file: loaded once, read with :meth:`get`, filled with :meth:`put`,
    saved once with only what this run used (results of vanished inputs go)."""

    def __init__(self, path: Path | None, kind: str) -> None:
        self.path = path
        self.stamp = [kind, code_digest()] if path is not None else None
        self.known: dict[str, object] = {}
        self.used: dict[str, object] = {}
        if path is None:
            return
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if isinstance(data, dict) and data.get("stamp") == self.stamp \
                and isinstance(data.get("results"), dict):
            self.known = data["results"]

    @property
    def enabled(self) -> bool:
        return self.path is not None

    def get(self, key: str):
        """The JSON value kept under ``key``, or None."""
        value = self.known.get(key) if self.enabled else None
        if value is not None:
            self.used[key] = value
        return value

    def put(self, key: str, value) -> None:
        if self.enabled:
            self.used[key] = value

    def save(self) -> None:
        if not self.enabled or self.used == self.known:
            return
        text = json.dumps({"stamp": self.stamp, "results": self.used}, ensure_ascii=False,
                          sort_keys=True, separators=(",", ":"))
        try:
            write_text_atomic(self.path, text + "\n")
        except (OSError, UserError):
            pass


def refuse_tracked(folders: Iterable[Path]) -> None:
    """One-line error naming a file git tracks in any of ``folders`` (those that exist
    inside a git checkout); nothing to do outside one, or without git."""
    tracked: list[tuple[Path, str]] = []
    for folder in folders:
        if not folder.is_dir():
            continue  # nothing checked out there
        try:
            listed = subprocess.run(["git", "-C", str(folder), "ls-files", "-z", "--full-name",
                                     "--", "."], capture_output=True, check=True).stdout
        except (OSError, subprocess.CalledProcessError):
            continue  # not a checkout, or no git
        tracked += [(folder, name) for name in listed.decode("utf-8", "replace").split("\0")
                    if name]
    if tracked:
        folder, name = tracked[0]
        more = f" (and {len(tracked) - 1} more)" if len(tracked) > 1 else ""
        raise UserError(f"git tracks {name}{more}, a result kept from an earlier run that this "
                        "run would trust; remove it from the repository (git rm --cached) "
                        "and run again", folder)
