"""The pinned upstream: read the pin, hash a docs tree, stage it into _build/upstream."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

from jaxko import paths
from jaxko.catalogs import write_text_atomic
from jaxko.errors import UserError

PIN_FILE = "upstream.toml"

# The hash covers the documents themselves: what the offline copy in shared/ holds and
# what a clone of the tag holds alike. A clone also has conf.py, sphinxext/ and .py
# companions: those are staged (tagged-block/literalinclude use them) but not hashed.
HASHED_SUFFIXES = frozenset({".md", ".rst", ".ipynb", ".png", ".svg", ".jpg", ".jpeg", ".gif"})
# Never staged: upstream's own build configuration; the project's conf.py replaces it.
NOT_STAGED = frozenset({"conf.py", "sphinxext", "_build", "build", "requirements.txt"})


@dataclass(frozen=True)
class Pin:
    repository: str
    tag: str
    commit: str
    content_hash: str
    path: Path


def read_pin(root: Path | None = None) -> Pin:
    path = (root or paths.repo_root()) / PIN_FILE
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError("pin file missing; restore it from git", path) from None
    except tomllib.TOMLDecodeError as err:
        raise UserError(f"invalid TOML: {err}", path, getattr(err, "lineno", None)) from None
    section = data.get("upstream")
    if not isinstance(section, dict):
        raise UserError("missing [upstream] table", path, 1)
    try:
        return Pin(
            repository=str(section["repository"]),
            tag=str(section["tag"]),
            commit=str(section.get("commit", "")),
            content_hash=str(section.get("content_hash", "")),
            path=path,
        )
    except KeyError as err:
        raise UserError(f"[upstream] lacks {err.args[0]!r}", path) from None


def write_pin(pin: Pin) -> None:
    text = (
        "# The pinned upstream: JAX's docs/ at one release tag.\n"
        "# `jaxko upstream sync` stages exactly this tree into _build/upstream/ and refuses\n"
        "# any other (content hash); `jaxko upstream sync --repin` moves the pin.\n"
        "[upstream]\n"
        f'repository = "{pin.repository}"\n'
        f'tag = "{pin.tag}"\n'
        f'commit = "{pin.commit}"\n'
        "# sha256 over the sorted (path, sha256(content)) list of the documents in docs/\n"
        "# (.md .rst .ipynb and images) and of CHANGELOG.md\n"
        f'content_hash = "{pin.content_hash}"\n'
    )
    write_text_atomic(pin.path, text)


def _hashed_files(tree: Path) -> list[tuple[str, Path]]:
    files = []
    docs = tree / "docs"
    for path in docs.rglob("*"):
        if path.is_file() and path.suffix.lower() in HASHED_SUFFIXES:
            rel = path.relative_to(tree).as_posix()
            if any(part in NOT_STAGED for part in path.relative_to(docs).parts):
                continue
            files.append((rel, path))
    changelog = tree / "CHANGELOG.md"
    if changelog.is_file():
        files.append(("CHANGELOG.md", changelog))
    return sorted(files)


def content_hash(tree: Path) -> str:
    """sha256 over (relative path, sha256 of bytes) of every hashed file, sorted."""
    outer = hashlib.sha256()
    for rel, path in _hashed_files(tree):
        outer.update(rel.encode())
        outer.update(b"\0")
        outer.update(hashlib.sha256(path.read_bytes()).digest())
    return outer.hexdigest()


def mismatched_files(tree: Path, reference: Path) -> list[str]:
    """Which hashed files differ between two trees (for the error message)."""
    ours = {rel: p for rel, p in _hashed_files(tree)}
    theirs = {rel: p for rel, p in _hashed_files(reference)}
    out = []
    for rel in sorted(set(ours) | set(theirs)):
        a, b = ours.get(rel), theirs.get(rel)
        if a is None or b is None or a.read_bytes() != b.read_bytes():
            out.append(rel)
    return out


def default_source(pin: Pin, root: Path) -> str:
    """../shared/upstream/<tag> beside the checkout when it exists, else the URL."""
    local = root.parent / "shared" / "upstream" / pin.tag
    return str(local) if local.is_dir() else pin.repository


def _is_url(source: str) -> bool:
    return "://" in source or source.startswith("git@") or source.endswith(".git")


def _clone(url: str, tag: str, into: Path) -> Path:
    cmd = ["git", "clone", "--quiet", "--depth", "1", "--branch", tag, url, str(into)]
    try:
        subprocess.run(cmd, check=True, capture_output=True, text=True)
    except FileNotFoundError:
        raise UserError("git is not installed; install git or pass --from PATH") from None
    except subprocess.CalledProcessError as err:
        last = (err.stderr or "").strip().splitlines()[-1:] or ["git clone failed"]
        raise UserError(f"cannot clone tag {tag}: {last[0]}", url) from None
    return into


def _sync_tree(source: Path, dest: Path, extra: dict[Path, Path] | None = None) -> tuple[int, int]:
    """Mirror ``source`` into ``dest``, touching only files that differ.

    Unchanged files keep their mtime (Sphinx stays incremental). Returns (copied, removed).
    """
    copied = removed = 0
    wanted: set[Path] = set()
    for rel, src in (extra or {}).items():
        wanted.add(rel)
        copied += _sync_file(src, dest / rel)
    for dirpath, dirnames, filenames in os.walk(source):
        dirnames[:] = sorted(d for d in dirnames if d not in NOT_STAGED and not d.startswith("."))
        rel_dir = Path(dirpath).relative_to(source)
        for name in filenames:
            if name in NOT_STAGED or name.startswith("."):
                continue
            rel = rel_dir / name
            wanted.add(rel)
            copied += _sync_file(source / rel, dest / rel)
    if dest.is_dir():
        for path in sorted(dest.rglob("*"), reverse=True):
            rel = path.relative_to(dest)
            if path.is_file() and rel not in wanted:
                path.unlink()
                removed += 1
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()
    return copied, removed


@dataclass
class SyncResult:
    source: str
    dest: Path
    content_hash: str
    copied: int
    removed: int
    repinned: bool


def sync(source: str | None = None, *, repin: bool = False, tag: str | None = None,
         root: Path | None = None, dest: Path | None = None) -> SyncResult:
    """Stage the pinned upstream docs into _build/upstream/ (docs/ and CHANGELOG.md)."""
    root = root or paths.repo_root()
    pin = read_pin(root)
    want_tag = tag or pin.tag
    source = source or default_source(pin, root)
    with tempfile.TemporaryDirectory(prefix="jaxko-clone-") as tmp:
        if _is_url(source):
            tree = _clone(source, want_tag, Path(tmp) / "jax")
        else:
            tree = Path(source).resolve()
        if not (tree / "docs").is_dir():
            raise UserError("no docs/ folder here; pass the root of a JAX checkout or of "
                            "shared/upstream/<tag>", tree)
        if not (tree / "CHANGELOG.md").is_file():
            raise UserError("CHANGELOG.md missing beside docs/ (docs/changelog.md includes it)",
                            tree)
        digest = content_hash(tree)
        if not repin and digest != pin.content_hash:
            if not pin.content_hash:
                raise UserError("pin has no content_hash yet; run `jaxko upstream sync --repin`",
                                pin.path)
            detail = ""
            staged = paths.build_dir(root) / "upstream"
            local = root.parent / "shared" / "upstream" / pin.tag
            reference = local if local.is_dir() and local.resolve() != tree else (
                staged if staged.is_dir() else None)
            if reference is not None:
                diff = mismatched_files(tree, reference)
                if diff:
                    more = f" (+{len(diff) - 3} more)" if len(diff) > 3 else ""
                    detail = f"; differs in {', '.join(diff[:3])}{more}"
            raise UserError(
                f"content hash {digest[:12]} does not match the pin {pin.content_hash[:12]} "
                f"({pin.tag}){detail}; use --repin to move the pin", tree)
        dest = dest or paths.build_dir(root) / "upstream"
        extra = overlay_files(root / "overlay", tree / "docs")
        copied, removed = _sync_tree(tree / "docs", dest / "docs", extra)
        copied += _sync_file(tree / "CHANGELOG.md", dest / "CHANGELOG.md")
        if repin:
            commit = pin.commit
            if (tree / ".git").exists():
                commit = subprocess.run(["git", "-C", str(tree), "rev-parse", "HEAD"],
                                        capture_output=True, text=True).stdout.strip() or commit
            write_pin(Pin(pin.repository, want_tag, commit, digest, pin.path))
    return SyncResult(source, dest, digest, copied, removed, repin)


def _sync_file(src: Path, dst: Path) -> bool:
    """Copy one file atomically unless ``dst`` already has its content; True if copied.

    copy2 keeps the source mtime, so equal size and mtime mean an earlier copy; only
    then is the content compared, so re-staging an unchanged tree reads almost nothing.
    """
    st = src.stat()
    try:
        dt = dst.stat()
        if dt.st_size == st.st_size and (int(dt.st_mtime) == int(st.st_mtime)
                                         or dst.read_bytes() == src.read_bytes()):
            return False
    except FileNotFoundError:
        pass
    dst.parent.mkdir(parents=True, exist_ok=True)
    tmp = dst.with_name(f".{dst.name}.tmp")
    shutil.copy2(src, tmp)
    os.chmod(tmp, 0o644)
    os.replace(tmp, dst)
    return True


def overlay_files(overlay: Path, docs_source: Path) -> dict[Path, Path]:
    """The project's stand-ins for upstream web assets that the pinned tree lacks.

    ``overlay/hero.html`` is staged only when upstream's tree has no hero.html (a clone
    of the tag has its own, which is then used). Returns {relative path: our file}.
    """
    if not overlay.is_dir():
        return {}
    out = {}
    for src in sorted(p for p in overlay.rglob("*") if p.is_file()):
        rel = src.relative_to(overlay)
        if not (docs_source / rel).exists():
            out[rel] = src
    return out
