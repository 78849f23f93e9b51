"""Mermaid diagrams render offline: mermaid from the npm registry, not from a CDN.

sphinxcontrib-mermaid renders diagrams in the browser with an inline module script that
imports mermaid from jsDelivr, and it adds that script to every page without a doctree
(search.html, genindex.html) as well. Here, as ``offline_math`` does for MathJax:

* ``make setup`` runs ``python -m jaxko.sphinxext.offline_mermaid``: ``npm pack`` the
  pinned ``mermaid`` package from the npm registry, check the tarball against the
  pinned integrity (sha512, as in a package-lock.json), and keep its ES-module build
  (``dist/mermaid.esm.min.mjs`` and the chunks it imports, with the licence) in
  ``<venv>/share/jaxko/mermaid-<version>/``;
* the extension copies those files into ``_static/mermaid/``, points
  ``mermaid_use_local`` at them, and adds the script only to pages with a diagram.

The build itself needs no network; a missing copy fails the build with one line.
"""

from __future__ import annotations

import base64
import hashlib
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from sphinx.errors import ExtensionError

from jaxko.sphinxext.offline_math import copy_if_changed
from jaxko.errors import UserError

PACKAGE = "mermaid"
VERSION = "11.12.1"  # sphinxcontrib-mermaid 2.x's default mermaid_version
INTEGRITY = ("sha512-UlIZrRariB11TY1RtTgUWp65tphtBv4CSq7vyS2ZZ2TgoMjs2nloq+wFqxiwcxlhHUvs7"
             "DPGgMjs2aeQxz5h9g==")
ENTRY = "mermaid.esm.min.mjs"
CHUNKS = "chunks/mermaid.esm.min"
STATIC = "mermaid"  # under _static


def vendor_dir() -> Path:
    """Where ``make setup`` keeps the pinned mermaid (inside the virtual environment)."""
    return Path(sys.prefix) / "share" / "jaxko" / f"{PACKAGE}-{VERSION}"


def vendored_files(folder: Path) -> list[Path]:
    """The files a page needs, relative to ``folder``: the entry module and its chunks."""
    chunks = sorted(p.relative_to(folder) for p in (folder / CHUNKS).glob("*.mjs"))
    return [Path(ENTRY), *chunks]


def _integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")


def vendor(dest: Path | None = None) -> Path:
    """Fetch the pinned mermaid with npm into ``dest`` (default :func:`vendor_dir`)."""

    dest = dest or vendor_dir()
    if (dest / ENTRY).is_file():
        return dest
    npm = shutil.which("npm")
    if npm is None:
        raise UserError("npm not found: it fetches mermaid from the npm registry; install "
                        "Node.js (Debian: apt-get install npm)")
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="jaxko-mermaid-", dir=dest.parent) as tmp:
        work = Path(tmp)
        proc = subprocess.run([npm, "pack", f"{PACKAGE}@{VERSION}", "--silent",
                               "--pack-destination", str(work)], cwd=work,
                              capture_output=True, text=True)
        tarballs = sorted(work.glob("*.tgz"))
        if proc.returncode != 0 or not tarballs:
            last = (proc.stderr.strip().splitlines() or ["no tarball"])[-1]
            raise UserError(f"npm pack {PACKAGE}@{VERSION} failed: {last}")
        data = tarballs[0].read_bytes()
        if _integrity(data) != INTEGRITY:
            raise UserError(f"{tarballs[0].name} does not match the pinned integrity; "
                            "refusing it (check the registry, or update INTEGRITY with VERSION)",
                            Path(__file__))
        unpacked = work / "unpacked"
        with tarfile.open(tarballs[0]) as archive:
            wanted = [m for m in archive.getmembers() if m.isfile() and (
                m.name in ("package/LICENSE", f"package/dist/{ENTRY}")
                or (m.name.startswith(f"package/dist/{CHUNKS}/") and m.name.endswith(".mjs")))]
            archive.extractall(unpacked, members=wanted, filter="data")
        staged = work / "staged"
        (unpacked / "package" / "dist").rename(staged)
        shutil.copyfile(unpacked / "package" / "LICENSE", staged / "LICENSE")
        staged.rename(dest)  # atomic: a folder with the entry is always complete
    return dest


def copy_mermaid(app, exc) -> None:
    if exc is not None or app.builder.format != "html":
        return
    source = vendor_dir()
    dest = Path(app.outdir) / "_static" / STATIC
    for rel in [*vendored_files(source), Path("LICENSE")]:
        copy_if_changed(source / rel, dest / rel)


def _diagram_pages_only(app, pagename, templatename, context, doctree) -> None:
    """sphinxcontrib-mermaid's script, but only on pages that have a diagram."""
    from sphinxcontrib.mermaid import install_js, mermaid

    if doctree is not None and doctree.next_node(mermaid) is not None:
        install_js(app, pagename, templatename, context, doctree)


def setup(app):
    app.setup_extension("sphinxcontrib.mermaid")
    from sphinxcontrib.mermaid import install_js

    if not (vendor_dir() / ENTRY).is_file():
        raise ExtensionError(f"{PACKAGE} {VERSION} is not in {vendor_dir()}; run `make setup` "
                             "(python -m jaxko.sphinxext.offline_mermaid)")
    for listener in list(app.events.listeners.get("html-page-context", [])):
        if listener.handler is install_js:
            app.disconnect(listener.id)
    app.config.mermaid_use_local = f"{STATIC}/{ENTRY}"
    app.connect("html-page-context", _diagram_pages_only)
    app.connect("build-finished", copy_mermaid)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}


def main() -> int:

    try:
        print(f"{PACKAGE} {VERSION}: {vendor()}")
    except UserError as err:
        print(f"jaxko: {err.format()}", file=sys.stderr)
        return err.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main())
