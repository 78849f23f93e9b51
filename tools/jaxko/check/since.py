"""``jaxko check --since REV``: the lines of .po files a change touched, from ``git diff``."""

from __future__ import annotations

import subprocess
from pathlib import Path

from jaxko.errors import UserError


def changed_lines(revision: str, paths: list[Path]) -> dict[Path, frozenset[int] | None]:
    """Lines of .po files changed since ``revision`` (git), per resolved path.

    ``None`` as the value means the whole file (a new, untracked catalog).
    """
    existing = [p for p in paths if p.exists()]
    if not existing:
        raise UserError("no such file or directory", paths[0] if paths else ".")
    anchor = existing[0] if existing[0].is_dir() else existing[0].parent
    try:
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=anchor,
                             capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        raise UserError("--since needs a git checkout; none found here", anchor) from None
    top_path = Path(top)
    specs = [str(p.resolve()) for p in existing]
    diff = subprocess.run(["git", "diff", "--no-color", "--no-ext-diff",
                           "-U0", revision, "--", *specs],
                          cwd=top, capture_output=True, text=True)
    if diff.returncode != 0:
        reason = (diff.stderr.strip().splitlines() or ["git diff failed"])[-1]
        raise UserError(f"--since {revision}: {reason}")
    changed: dict[Path, set[int] | None] = {}
    current: Path | None = None
    for line in diff.stdout.splitlines():
        if line.startswith("+++ "):
            name = line[4:]
            current = None if name == "/dev/null" else (top_path / name[2:]).resolve()
            if current is not None and current.suffix == ".po":
                changed.setdefault(current, set())
            else:
                current = None
        elif line.startswith("@@") and current is not None:
            header = line.split("@@")[1].split()
            plus = next(part for part in header if part.startswith("+"))
            start, _, count = plus[1:].partition(",")
            first, size = int(start), int(count) if count else 1
            bucket = changed[current]
            if size == 0:  # lines removed after `first`: the entry around them changed
                bucket.update((first, first + 1))
            else:
                bucket.update(range(first, first + size))
    others = subprocess.run(["git", "ls-files", "--others", "--exclude-standard", "--", *specs],
                            cwd=top, capture_output=True, text=True)
    for name in others.stdout.splitlines():
        if name.endswith(".po"):
            changed[(top_path / name).resolve()] = None
    return {path: (frozenset(lines) if lines is not None else None)
            for path, lines in changed.items()}
