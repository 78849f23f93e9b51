"""Which translated strings code uses as more than text: the second half of the static check.

:func:`jaxko.codetokens.first_difference` lets a translated code cell differ from
upstream only in comments and string contents. That still lets a string become a
different file name, command, module or piece of code (``open('out.txt', 'w')`` ->
``open('/home/me/.bashrc', 'a')``). :func:`changed_literal` parses both cells with
:mod:`ast` (after IPython's own input transformation, so ``!`` and ``%`` lines are what
the kernel runs) and refuses a changed string that sits anywhere inside the arguments
of a call to a file, OS, process, network, import, eval or loader API, is a subscript
of ``globals()``/``vars()``/``os.environ``/``sys.modules``, is assigned into
``os.environ``, or is a format string whose new replacement fields read attributes.

The decision is made on the call structure the parser sees, never on how a string is
spelled: ``print``, f-strings, exception messages and plot labels stay translatable;
``open(...)``, ``os.path.join(...)``, ``Path(...)``, ``subprocess.run(...)``,
``importlib.import_module(...)``, ``np.load(...)``, ``getattr(...)`` arguments do not.
Names are resolved through the imports of the whole (upstream) notebook, so
``from pathlib import Path as P`` makes ``P(...)`` a sink too. A changed string stored
in a variable is followed through the cell's assignments to the calls that receive it
(``log_dir = '/elsewhere'; jax.profiler.start_trace(log_dir)``); what it does in
another cell, or through an object, is the sandbox's job at run time (:mod:`.sandbox`).
"""

from __future__ import annotations

import ast
import re
import string
from typing import Iterator

from jaxko.codetokens import PYTHON_LANGUAGES

# Called by these exact names (after import aliases are resolved) or under these
# modules (a trailing "."), their arguments are paths, commands, modules, code,
# addresses or serialized objects.
_SINK_NAMES = frozenset({
    "open", "eval", "exec", "compile", "__import__", "getattr", "setattr", "delattr",
    "globals", "vars", "locals", "breakpoint",
    "io.open", "io.open_code", "io.FileIO", "codecs.open",
    "operator.attrgetter", "operator.methodcaller", "types.FunctionType", "types.CodeType",
    "yaml.load", "yaml.load_all", "yaml.unsafe_load", "yaml.full_load",
    "numpy.load", "numpy.save", "numpy.savez", "numpy.savez_compressed", "numpy.savetxt",
    "numpy.loadtxt", "numpy.genfromtxt", "numpy.fromfile", "numpy.fromregex",
    "numpy.memmap", "numpy.DataSource",
    "jax.numpy.load", "jax.numpy.save", "jax.numpy.savez", "jax.numpy.fromfile",
    "jax.export.deserialize",
    "matplotlib.pyplot.savefig", "matplotlib.pyplot.imsave", "matplotlib.pyplot.imread",
    "PIL.Image.open", "torch.load", "torch.save", "get_ipython",
    # Outputs the site publishes as HTML/JS: a changed string would be markup, not text.
    *(f"{module}.{name}" for module in ("IPython.display", "IPython.core.display")
      for name in ("HTML", "Javascript", "SVG", "Markdown", "IFrame", "display_html",
                   "display_javascript", "display_svg", "display_markdown")),
})
_SINK_MODULES = (
    "os.", "shutil.", "subprocess.", "pathlib.", "importlib.", "ctypes.", "pickle.",
    "marshal.", "shelve.", "dbm.", "tempfile.", "socket.", "urllib.", "http.", "requests.",
    "ftplib.", "smtplib.", "webbrowser.", "multiprocessing.", "runpy.", "pty.", "code.",
    "codeop.", "zipfile.", "tarfile.", "zipimport.", "pkgutil.", "sqlite3.", "glob.",
    "builtins.", "cloudpickle.", "dill.", "joblib.", "h5py.", "scipy.io.",
    "sys.path.", "sys.modules.", "sys.meta_path.", "sys.path_hooks.",
    "numpy.lib.format.", "numpy.ctypeslib.", "jax.config.", "jax.profiler.",
    "jax.experimental.compilation_cache.", "jax.experimental.serialize_executable.",
)
# Methods that open, write, move, delete, load or run, whatever object they are called on.
_SINK_METHODS = frozenset({
    "open", "write_text", "write_bytes", "unlink", "rename", "mkdir", "rmdir", "touch",
    "symlink_to", "hardlink_to", "chmod", "lchmod", "savefig", "tofile", "to_csv",
    "to_pickle", "to_parquet", "save", "restore", "LoadLibrary", "import_module",
    "exec_module", "load_module", "system", "getoutput", "run_line_magic",
    "run_cell_magic", "run_cell",
})
# Subscripts that reach names, modules or the environment.
_SINK_SUBSCRIPTS = frozenset({"globals", "vars", "locals", "os.environ", "sys.modules",
                              "__builtins__", "builtins.__dict__"})
# Conventional names, for a cell whose notebook never imports them in parsable code.
_DEFAULT_ALIASES = {"np": "numpy", "jnp": "jax.numpy", "plt": "matplotlib.pyplot",
                    "Path": "pathlib.Path", "HTML": "IPython.display.HTML"}
_PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug", "python",
                                 "python3", "pypy", "memit", "mprun"})
_MAX_SHOWN = 40


def notebook_aliases(notebook, language: str = "python") -> dict[str, str]:
    """Local name -> dotted module path, from the imports in every code cell."""
    aliases: dict[str, str] = {}
    if (language or "python").strip().lower() not in PYTHON_LANGUAGES:
        return aliases
    for cell in notebook.cells:
        if cell.cell_type == "code":
            tree = _parse(cell.source)
            if tree is not None:
                aliases.update(_imports(tree))
    return aliases


def _imports(tree: ast.AST) -> dict[str, str]:
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for name in node.names:
                if name.asname:
                    aliases[name.asname] = name.name
                else:
                    top = name.name.split(".")[0]
                    aliases[top] = top
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for name in node.names:
                if name.name != "*":
                    aliases[name.asname or name.name] = f"{node.module}.{name.name}"
    return aliases


def changed_literal(source: str, translated: str, language: str = "python",
                    aliases: dict[str, str] | None = None) -> str | None:
    """None when no changed string reaches an API that uses it as more than text.

    Otherwise one line naming the first such string and where it goes, e.g.
    ``line 4: 'out.txt' became '/tmp/x', and it is passed to open()``. Meant for
    translations that :func:`jaxko.codetokens.first_difference` accepts (same tokens);
    anything that does not parse is left to that check.
    """
    if source == translated or (language or "python").strip().lower() not in PYTHON_LANGUAGES:
        return None
    offset = 0
    magic, body = _split_cell_magic(source)
    if magic is not None:
        name = magic.split()[0][2:] if magic.split() else ""
        if name not in _PYTHON_CELL_MAGICS and not _writes_python(magic):
            return None  # not Python: only its comment lines may differ
        source, translated = body, _split_cell_magic(translated)[1]
        offset = 1
    old_tree, new_tree = _parse(source), _parse(translated)
    if old_tree is None or new_tree is None:
        return None
    old_sites, new_sites = list(_strings(old_tree)), list(_strings(new_tree))
    if len(old_sites) != len(new_sites):
        return (f"line {new_tree.body[0].lineno + offset if new_tree.body else 1}: its strings "
                "no longer line up with upstream's; keep upstream's string literals and "
                "change only their text")
    names = {**_DEFAULT_ALIASES, **(aliases or {}), **_imports(old_tree)}
    parents = _parents(new_tree)
    for old, new in zip(old_sites, new_sites):
        if ast.dump(old) == ast.dump(new):
            continue
        use = _sink_use(new, old, parents, names) or _flow_use(new, new_tree, parents, names)
        if use:
            return (f"line {new.lineno + offset}: {_show(old)} became {_show(new)}, and it "
                    f"{use}; translate only strings that are shown (print, messages, labels), "
                    "never ones code uses as files, commands, modules, names or code")
    return None


# ------------------------------------------------------------------------------ parse


def _parse(code: str) -> ast.Module | None:
    """The Python the kernel runs for ``code`` (IPython's transformation), or None."""
    try:
        from IPython.core.inputtransformer2 import TransformerManager

        python = TransformerManager().transform_cell(code)
    except Exception:  # IPython refuses what it cannot transform: not our check's case
        python = code
    try:
        return ast.parse(python)
    except (SyntaxError, ValueError):
        return None


def _split_cell_magic(code: str) -> tuple[str | None, str]:
    first, _, rest = code.partition("\n")
    if first.lstrip().startswith("%%"):
        return first.strip(), rest
    return None, code


def _writes_python(magic: str) -> bool:
    parts = magic.split()
    return bool(parts) and parts[0] in ("%%writefile", "%%file") and parts[-1].endswith(".py")


def _strings(tree: ast.AST) -> Iterator[ast.expr]:
    """Every string or bytes literal, in a fixed order; an f-string counts as one (its
    ``{...}`` fields are kept equal by the token check)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.JoinedStr):
            yield node
        elif isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
            yield node
        else:
            yield from _strings(node)


def _parents(tree: ast.AST) -> dict[int, ast.AST]:
    parents = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    return parents


# ------------------------------------------------------------------------------ sinks


def _sink_use(site: ast.expr, old: ast.expr, parents: dict[int, ast.AST],
              names: dict[str, str]) -> str | None:
    """How a changed string reaches a sink ("is passed to open()"), or None."""
    parent = parents.get(id(site))
    if (isinstance(parent, ast.Attribute) and parent.attr in ("format", "format_map")
            and isinstance(parents.get(id(parent)), ast.Call)
            and parents[id(parent)].func is parent):
        reads = _new_field_reads(old, site)
        if reads:
            return f"is a format string that now reads {reads}"
    child, node = site, parent
    while node is not None:
        if isinstance(node, ast.Call) and child is not node.func:
            callee = _callee(node.func, names)
            if callee:
                return f"is passed to {callee}()"
        elif isinstance(node, ast.Subscript) and child is node.slice:
            target = _dotted(node.value, names) or _callee_of_call(node.value, names)
            if target in _SINK_SUBSCRIPTS:
                shown = target if _dotted(node.value, names) else f"{target}()"
                return f"is a key of {shown}"
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and child is node.value:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Subscript) and \
                        _dotted(target.value, names) in _SINK_SUBSCRIPTS:
                    return f"is stored in {_dotted(target.value, names)}"
        child, node = node, parents.get(id(node))
    return None


def _assigned_names(node: ast.expr, parents: dict[int, ast.AST]) -> list[str]:
    """The variables an expression's value is stored in, when it is (part of) the value
    of an assignment in the cell (``log_dir = 'trace'``, ``path = base + '.txt'``);
    a call's result is not the string, so the climb stops at a call."""
    child, parent = node, parents.get(id(node))
    while isinstance(parent, (ast.BinOp, ast.JoinedStr, ast.FormattedValue, ast.Tuple,
                              ast.List, ast.IfExp, ast.BoolOp)):
        child, parent = parent, parents.get(id(parent))
    if isinstance(parent, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr)) \
            and child is parent.value:
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
        return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    return []


def _flow_use(site: ast.expr, tree: ast.AST, parents: dict[int, ast.AST],
              names: dict[str, str]) -> str | None:
    """How a changed string stored in a variable of the cell reaches a sink through it
    (``log_dir = '/elsewhere'`` then ``jax.profiler.start_trace(log_dir)``), following
    assignments from variable to variable within the cell; None when it does not (a
    flow into another cell is left to the sandbox at run time)."""
    pending, seen = _assigned_names(site, parents), set()
    loads: dict[str, list[ast.Name]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            loads.setdefault(node.id, []).append(node)
    while pending:
        variable = pending.pop()
        if variable in seen:
            continue
        seen.add(variable)
        for load in loads.get(variable, ()):
            child, node = load, parents.get(id(load))
            while node is not None and not isinstance(node, ast.stmt):
                if isinstance(node, ast.Call) and child is not node.func:
                    callee = _callee(node.func, names)
                    if callee:
                        return f"is stored in `{variable}`, which is passed to {callee}()"
                child, node = node, parents.get(id(node))
            pending.extend(_assigned_names(load, parents))
    return None


def _callee(func: ast.expr, names: dict[str, str]) -> str | None:
    """The sink a call calls, as shown in messages, or None for any other call."""
    dotted = _dotted(func, names)
    if dotted is not None:
        if dotted in _SINK_NAMES or dotted.startswith(_SINK_MODULES):
            return dotted
    if isinstance(func, ast.Attribute):
        if func.attr in _SINK_METHODS:
            return dotted or f"(…).{func.attr}"
        if isinstance(func.value, ast.Call) and _callee_of_call(func.value, names) == "get_ipython":
            return f"get_ipython().{func.attr}"
        receiver = _callee_of_call(func.value, names) if isinstance(func.value, ast.Call) else None
        if receiver and receiver.startswith(("pathlib.", "io.", "zipfile.", "tarfile.")):
            return f"{receiver}(…).{func.attr}"
    return None


def _callee_of_call(node: ast.expr, names: dict[str, str]) -> str | None:
    """``globals`` for ``globals()``: the dotted name of what a call expression calls."""
    if isinstance(node, ast.Call):
        return _dotted(node.func, names)
    return None


def _dotted(node: ast.expr, names: dict[str, str]) -> str | None:
    """``numpy.lib.format.open_memmap`` for ``np.lib.format.open_memmap`` (aliases
    resolved); None for anything but a name or a chain of attributes on one."""
    attrs = []
    while isinstance(node, ast.Attribute):
        attrs.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    base = names.get(node.id, node.id)
    return ".".join([base, *reversed(attrs)])


_FIELD_READ = re.compile(r"[.\[]")


def _new_field_reads(old: ast.expr, new: ast.expr) -> str | None:
    """A replacement field of the new format string that reads an attribute or an item
    (``{0.__class__}``, ``{x[key]}``) and that upstream's string does not have."""
    def fields(node: ast.expr) -> set[tuple[str, str]] | None:
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            return None
        try:
            return {(name, spec or "") for _, name, spec, _ in string.Formatter().parse(node.value)
                    if name is not None}
        except ValueError:  # not a valid format string: str.format raises, reads nothing
            return set()

    before, after = fields(old), fields(new)
    if before is None or after is None:
        return None
    for name, spec in sorted(after - before):
        if _FIELD_READ.search(name) or "{" in spec:
            return "{" + name + (":" + spec if spec else "") + "}"
    return None


def _show(node: ast.expr) -> str:
    text = node.value if isinstance(node, ast.Constant) else ast.unparse(node)
    shown = repr(text)
    return shown if len(shown) <= _MAX_SHOWN else shown[: _MAX_SHOWN - 1] + "…"

