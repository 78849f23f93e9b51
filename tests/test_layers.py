"""The package reads as the pipeline: every import of a jaxko module points down.

The layers, lowest first, are the house's plan (README "The house"): facts, formats,
the pipeline's stages, checks, notebooks, the translators' workflow, the release bump,
Sphinx extensions that stand in for upstream's, the Korean site, and the CLI on top. A
module may import its own layer or a lower one, never a higher one, and no modules may
import each other in a loop. Imports inside functions count as much as those at the
top of a file (a lazy import is still a dependency).

The Korean site is two rooms: the build driver (``jaxko.site``: runs in ``jaxko``'s
process) and the Sphinx extensions (``jaxko.site.ext``: run inside Sphinx). Neither
imports the other; they meet through config values and files, and what both need lives
in a lower layer.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "tools" / "jaxko"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "paths", "korean", "codetokens", "scope", "forked"),  # facts
    ("glossary", "catalogs", "memo", "fragments"),  # one reader per format; kept results
    ("upstream", "extract", "update"),  # the pipeline's stages
    ("check",),
    ("notebooks",),
    ("workflow",),
    ("bump",),
    ("sphinxext",),
    ("site",),
    ("commands", "cli", "__main__", "__init__"),
)


def module_name(path: Path, package: Path) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(package: Path) -> dict[str, Path]:
    return {module_name(p, package): p for p in sorted(package.rglob("*.py"))}


def imports(package: Path) -> dict[str, set[str]]:
    """Each module's jaxko imports (module names), wherever in the file they stand."""
    known = modules(package)
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        targets = graph.setdefault(name, set())
        own_package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                candidates = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = own_package.split(".")[: len(own_package.split(".")) - node.level + 1]
                    base = ".".join(anchor + ([node.module] if node.module else []))
                # `from jaxko.notebooks import shards` imports a module; `from jaxko.errors
                # import UserError` a name of one
                candidates = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                              for alias in node.names]
            else:
                continue
            for candidate in candidates:
                while candidate and candidate not in known:
                    candidate = candidate.rpartition(".")[0]
                if candidate and candidate != name:
                    targets.add(candidate)
    return graph


def layer_of(module: str) -> int:
    part = module.split(".")[1] if "." in module else "__init__"
    for number, members in enumerate(LAYERS):
        if part in members:
            return number
    raise AssertionError(f"{module} has no layer in tests/test_layers.py LAYERS")


def upward(graph: dict[str, set[str]]) -> list[str]:
    return sorted(f"{a} -> {b}" for a, targets in graph.items() for b in targets
                  if layer_of(b) > layer_of(a))


def loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def packages_loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """Loops between the package's folders and top modules (site/ <-> sphinxext/)."""
    def top(module: str) -> str:
        return module.split(".")[1] if "." in module else module
    folded: dict[str, set[str]] = {}
    for a, targets in graph.items():
        folded.setdefault(top(a), set()).update(top(b) for b in targets if top(b) != top(a))
    return loops(folded)


DRIVER, EXTENSIONS = "jaxko.site", "jaxko.site.ext"


def room_of(module: str) -> str | None:
    """"extensions", "driver", or None for a module of neither room."""
    if module == EXTENSIONS or module.startswith(EXTENSIONS + "."):
        return "extensions"
    if module.startswith(DRIVER + "."):
        return "driver"
    return None


def across_rooms(graph: dict[str, set[str]]) -> list[str]:
    """Imports from one room of the site into the other."""
    return sorted(f"{a} -> {b}" for a, targets in graph.items() for b in targets
                  if room_of(a) and room_of(b) and room_of(a) != room_of(b))


def sphinxext_listed(package: Path) -> tuple[set[str], set[str]]:
    """(modules of sphinxext/, modules its docstring names as ``:mod:`.name```)."""
    import re

    folder = package / "sphinxext"
    present = {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}
    named = set(re.findall(r":mod:`\.(\w+)`", ast.get_docstring(
        ast.parse((folder / "__init__.py").read_text(encoding="utf-8"))) or ""))
    return present, named


def test_every_module_has_a_layer():
    for name in modules(PACKAGE):
        layer_of(name)


def test_no_import_runs_up_a_layer():
    assert upward(imports(PACKAGE)) == []


def test_no_modules_import_each_other_in_a_loop():
    graph = imports(PACKAGE)
    assert loops(graph) == []
    assert packages_loops(graph) == []


def test_the_site_driver_and_its_extensions_import_nothing_of_each_other():
    graph = imports(PACKAGE)
    assert {room_of(m) for m in graph} >= {"driver", "extensions"}, "the rooms are gone"
    assert across_rooms(graph) == []


def test_sphinxext_holds_what_its_docstring_says():
    present, named = sphinxext_listed(PACKAGE)
    assert present and present == named


@pytest.fixture
def planted(tmp_path):
    """A copy of the package to plant faults in."""
    import shutil

    copy = tmp_path / "jaxko"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def test_an_upward_import_inside_a_function_is_caught(planted):
    path = planted / "check" / "cache.py"
    path.write_text(path.read_text(encoding="utf-8")
                    + "\n\ndef _late():\n    from jaxko.site import gate\n    return gate\n",
                    encoding="utf-8")
    assert upward(imports(planted)) == ["jaxko.check.cache -> jaxko.site.gate"]


def test_a_relative_import_loop_is_caught(planted):
    path = planted / "scope.py"
    path.write_text(path.read_text(encoding="utf-8") + "\nfrom . import paths  # noqa\n",
                    encoding="utf-8")
    paths = planted / "paths.py"
    paths.write_text(paths.read_text(encoding="utf-8") + "\nfrom .scope import ACCELERATOR_REASON  # noqa\n",
                     encoding="utf-8")
    assert ["jaxko.paths", "jaxko.scope"] in loops(imports(planted))


def test_a_loop_between_folders_is_caught(planted):
    for path, line in ((planted / "sphinxext" / "jax_roles.py", "from jaxko.site import gate"),
                       (planted / "site" / "ext" / "typography.py", "from jaxko.sphinxext import offline_math")):
        path.write_text(path.read_text(encoding="utf-8") + f"\n{line}  # noqa\n", encoding="utf-8")
    graph = imports(planted)
    assert "jaxko.sphinxext.jax_roles -> jaxko.site.gate" in upward(graph)
    assert ["site", "sphinxext"] in packages_loops(graph)


def test_an_import_across_the_site_rooms_is_caught(planted):
    for path, line in ((planted / "site" / "watch.py", "    from jaxko.site.ext import search"),
                       (planted / "site" / "ext" / "status.py", "from jaxko.site.state import BuildState")):
        body = f"\n\ndef _late():\n{line}\n" if line.startswith(" ") else f"\n{line}  # noqa\n"
        path.write_text(path.read_text(encoding="utf-8") + body, encoding="utf-8")
    assert across_rooms(imports(planted)) == ["jaxko.site.ext.status -> jaxko.site.state",
                                              "jaxko.site.watch -> jaxko.site.ext.search"]
    assert upward(imports(planted)) == []  # the layers alone do not see it


def test_a_sphinxext_module_its_docstring_does_not_name_is_caught(planted):
    (planted / "sphinxext" / "stray.py").write_text("def setup(app):\n    return {}\n")
    present, named = sphinxext_listed(planted)
    assert present - named == {"stray"}
