"""Who may record a person's review, and the check ``review approve`` makes of it.

``jaxko review voided`` (CI, :mod:`jaxko.workflow.review_audit`) accepts a person's
record (``person``, ``self``) only from its reviewer: from the pull request's author
(``--author``, a GitHub login) or, without it, from the git authors of the lines that
added it. ``locale/<lang>/reviewers.yaml`` lists, per reviewer, the other names that may
add that reviewer's records; CI reads it as it is at the base revision.

:func:`identities` and :func:`load_allowlist` are the one reading of those names.
:func:`approval_identity` makes the same check when the record is written, as far as
it can be known locally: the git identity that will author the commit (``user.name``,
``user.email``) must be the reviewer or listed for the reviewer (else a refusal, the
one-line :class:`UserError`); what cannot be known here comes back as warnings (no git
identity set; a reviewer name that is no GitHub login and has no login listed, which a
pull request's check, run with its author's login, refuses). Outside a git work tree
nothing is checked: no commit, no CI.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import yaml

from jaxko.errors import UserError

ALLOWLIST_NAME = "reviewers.yaml"

_NOREPLY = re.compile(r"(?:\d+\+)?([^@\s]+)@users\.noreply\.github\.com", re.I)
# What GitHub accepts as a login: letters, digits, single hyphens, at most 39 characters.
_GITHUB_LOGIN = re.compile(r"[a-z0-9](?:-?[a-z0-9]){0,38}", re.I)


def identities(text: str) -> set[str]:
    """The names a git author or GitHub login goes by, case-folded and exact: a name is
    a name, a login a login, an e-mail address the whole address. Only a GitHub no-reply
    address (``123+login@users.noreply.github.com``) also names its login, which GitHub
    alone hands out; the local part of any other address (``hong`` of
    ``hong@company.example``) names nobody: anyone can register that login."""
    text = text.strip().strip("<>").strip()
    if not text:
        return set()
    found = {text.casefold()}
    noreply = _NOREPLY.fullmatch(text)
    if noreply:
        found.add(noreply.group(1).casefold())
    return found


def load_allowlist(text: str | None, path: Path) -> dict[str, set[str]]:
    """``reviewer: [name, ...]``: who else may add a reviewer's records, case-folded."""
    if not text:
        return {}
    try:
        data = yaml.safe_load(text) or {}
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        raise UserError("not valid YAML; fix the reviewers list", path,
                        mark.line + 1 if mark else None) from None
    if not isinstance(data, dict):
        raise UserError("expected `reviewer: [GitHub login or git author, ...]` entries", path, 1)
    allow: dict[str, set[str]] = {}
    for reviewer, names in data.items():
        names = [names] if isinstance(names, str) else names
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise UserError(f"reviewer {reviewer!r}: expected a list of GitHub logins or git "
                            "authors", path, _line_of(text, str(reviewer)))
        allow[str(reviewer).casefold()] = set().union(*(identities(n) for n in names)) \
            if names else set()
    return allow


def _line_of(text: str, key: str) -> int:
    """The line of a top-level key of the allowlist, as YAML reads the key (quoted,
    flow-style or not); 1 when it cannot be told."""
    try:
        node = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        return 1
    if isinstance(node, yaml.MappingNode):
        for key_node, _value in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.value == key:
                return key_node.start_mark.line + 1
    return 1


def accepted(reviewer: str, allowlist: dict[str, set[str]]) -> set[str]:
    """The identities whose change may add ``reviewer``'s records."""
    return identities(reviewer) | allowlist.get(reviewer.strip().casefold(), set())


def _git(folder: Path, *args: str) -> subprocess.CompletedProcess | None:
    try:
        return subprocess.run(["git", *args], cwd=folder, capture_output=True, text=True,
                              timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None


def local_identity(folder: Path) -> tuple[str, str] | None:
    """``(user.name, user.email)`` as git sees them in ``folder`` (either may be "");
    None when ``folder`` is in no git work tree (or there is no git)."""
    inside = _git(folder, "rev-parse", "--is-inside-work-tree")
    if inside is None or inside.returncode != 0 or inside.stdout.strip() != "true":
        return None
    values = []
    for key in ("user.name", "user.email"):
        out = _git(folder, "config", key)
        values.append(out.stdout.strip() if out is not None and out.returncode == 0 else "")
    return values[0], values[1]


def approval_identity(reviewer: str, folder: Path, allowlist_path: Path) -> list[str]:
    """Refuse (UserError) a person's record whose reviewer the local git identity is not
    and that ``allowlist_path`` does not let it add; return warnings for what CI may
    still refuse (see the module docstring). ``folder``: where the records are written."""
    here = local_identity(folder)
    if here is None:
        return []
    text = allowlist_path.read_text(encoding="utf-8") if allowlist_path.is_file() else None
    allowed = accepted(reviewer, load_allowlist(text, allowlist_path))
    name, email = here
    mine = identities(name) | identities(email)
    warnings = []
    if not mine:
        warnings.append(
            f"git user.name and user.email are not set, so who commits {reviewer}'s review "
            f"cannot be told: `jaxko review voided` (CI) refuses it unless its author is "
            f"{reviewer} or listed for {reviewer} in {allowlist_path}; set `git config "
            "user.name`")
    elif not mine & allowed:
        who = " ".join(part for part in (name, f"<{email}>" if email else "") if part)
        raise UserError(
            f"your git identity {who} is not {reviewer} and {allowlist_path.name} does not "
            f"list it for {reviewer}: `jaxko review voided` (CI) will refuse this record as "
            f"added by someone other than {reviewer}; review as --reviewer \"{name or email}\", "
            f"set `git config user.name \"{reviewer}\"` if you are {reviewer}, or have a "
            f"maintainer list your git name or GitHub login for {reviewer} in {allowlist_path}",
            allowlist_path.parent / "reviews")
    if not any(_GITHUB_LOGIN.fullmatch(n) for n in allowed):
        warnings.append(
            f"{reviewer} is no GitHub login and {allowlist_path} lists none for {reviewer}: "
            "a pull request's check (`jaxko review voided --author LOGIN`) will refuse this "
            f"record; have `{reviewer}: [YOUR-GITHUB-LOGIN]` added to {allowlist_path.name} "
            "before the pull request (CI reads it from the base branch)")
    return warnings
