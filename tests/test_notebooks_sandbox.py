"""Translated notebook code in a box: the static string check and the run-time sandbox.

The static half (:mod:`jaxko.notebooks.literals`) is tested on code pairs and on the
committed Korean catalogs; the sandbox (:mod:`jaxko.notebooks.sandbox`) on real
kernels, with small notebook projects built here: an "upstream" notebook, a catalog
whose translation changes only strings, `jaxko notebooks build`, then `verify`.
The payloads reach their API through a variable (the static check cannot see that;
the sandbox must), by APIs no rule names one by one (os.open with flags,
Path.write_bytes, io.open, shutil.copy, os.popen, importlib.import_module).
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path
from xml.etree import ElementTree

import nbformat
import polib
import pytest

from jaxko import catalogs, scope
from jaxko.notebooks import build, sources, verify
from jaxko.notebooks.literals import changed_literal, notebook_aliases

ROOT = Path(__file__).resolve().parents[1]

# --------------------------------------------------------------------- static check

REFUSED = [
    # (upstream cell, translated cell, where the message says the string goes)
    ("import os\nfd = os.open('out.bin', os.O_WRONLY | os.O_CREAT)",
     "import os\nfd = os.open('/home/me/.bashrc', os.O_WRONLY | os.O_CREAT)", "os.open()"),
    ("from pathlib import Path as P\nP('out.bin').write_bytes(b'1')",
     "from pathlib import Path as P\nP('/usr/lib/python3/site-packages/x.pth').write_bytes(b'1')",
     "pathlib.Path()"),
    ("data.write_bytes(b'header')", "data.write_bytes(b'import os')", "data.write_bytes()"),
    ("import io\nio.open('log.txt', 'a').close()", "import io\nio.open('../../log.txt', 'a').close()",
     "io.open()"),
    ("import shutil\nshutil.copy(src, 'copy.txt')",
     "import shutil\nshutil.copy(src, 'site-packages/evil.pth')", "shutil.copy()"),
    ("import os\nprint(os.popen('date').read())",
     "import os\nprint(os.popen('curl https://x.example/').read())", "os.popen()"),
    ("import importlib\nmod = importlib.import_module('json')",
     "import importlib\nmod = importlib.import_module('subprocess')", "importlib.import_module()"),
    ("from subprocess import run as go\ngo(['echo', 'hi'])",
     "from subprocess import run as go\ngo(['rm', '-rf'])", "subprocess.run()"),
    ("value = getattr(module, 'sum')", "value = getattr(module, 'system')", "getattr()"),
    ("import numpy as np\nx = np.load('weights.npy')",
     "import numpy as np\nx = np.load('/srv/other/weights.npy')", "numpy.load()"),
    ("x = jnp.load('w.npy')", "x = jnp.load('/etc/w.npy')", "jax.numpy.load()"),
    ("import os\nos.environ['XLA_FLAGS'] = '--xla_force_host_platform_device_count=8'",
     "import os\nos.environ['XLA_FLAGS'] = '--xla_dump_to=/home/me'", "os.environ"),
    ("f = globals()['helper']", "f = globals()['__builtins__']", "globals()"),
    ("print('{}'.format(x))", "print('{0.__class__.__init__.__globals__}'.format(x))",
     "format string"),
    ("%%timeit\nopen('a.txt').read()", "%%timeit\nopen('/etc/shadow').read()", "open()"),
    ("eval('1 + 1')", "eval('__import__(\"os\").system(\"id\")')", "eval()"),
    ("with open(f'out_{i}.txt', 'w') as f:\n    f.write('x')",
     "with open(f'/tmp/out_{i}.txt', 'w') as f:\n    f.write('x')", "open()"),
]


@pytest.mark.parametrize("upstream,translated,where", REFUSED)
def test_changed_strings_passed_to_file_os_import_or_eval_apis_are_refused(
        upstream, translated, where):
    found = changed_literal(upstream, translated)
    assert found is not None, translated
    assert where in found and found.startswith("line "), found
    assert "translate only strings that are shown" in found


ALLOWED = [
    ("print('result:', x)", "print('결과:', x)"),
    ("print(f'total = {total:.2f}')", "print(f'합계 = {total:.2f}')"),
    ("raise ValueError('shapes do not match')", "raise ValueError('모양이 맞지 않습니다')"),
    ("plt.xlabel('time')\nplt.title('Loss')", "plt.xlabel('시간')\nplt.title('손실')"),
    ("print('{} of {}'.format(a, b))", "print('{1}의 {0}'.format(a, b))"),
    ("def f():\n    '''Adds one.'''\n    return 1", "def f():\n    '''1을 더합니다.'''\n    return 1"),
    ("labels = {'x': 'input'}", "labels = {'x': '입력'}"),
    ("with open('out.txt', 'w') as f:\n    f.write('done')",
     "with open('out.txt', 'w') as f:\n    f.write('완료')"),
    # A string stored first and used later: the sandbox's job at run time.
    ("name = 'out.txt'", "name = '/tmp/out.txt'"),
    ("!echo hi", "!echo hi"),
]


@pytest.mark.parametrize("upstream,translated", ALLOWED)
def test_translated_text_strings_stay_allowed(upstream, translated):
    assert changed_literal(upstream, translated) is None


def test_aliases_come_from_the_whole_notebook():
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import subprocess as sp\n!ls"),
        nbformat.v4.new_code_cell("from os import path as osp")])
    aliases = notebook_aliases(notebook)
    assert aliases["sp"] == "subprocess" and aliases["osp"] == "os.path"
    assert "subprocess.check_output()" in changed_literal(
        "sp.check_output(['ls'])", "sp.check_output(['id'])", aliases=aliases)


def test_committed_korean_catalogs_have_no_refused_string(shared_upstream, tmp_path):
    """The false positives on the real catalogs: none (every translated code cell)."""
    summary = build.build(srcdir=shared_upstream / "docs", locale_dir=ROOT / "locale",
                          out_dir=tmp_path / "ko")
    refused = [e.format() for e in summary.errors if "changes a string that code uses" in e.message]
    assert refused == []
    assert sum(nb.code_cells for nb in summary.notebooks) > 0  # translated code was checked


# --------------------------------------------------------------- notebook projects

HEADER = {"Project-Id-Version": "JAX", "Language": "ko", "MIME-Version": "1.0",
          "Content-Type": "text/plain; charset=UTF-8", "Content-Transfer-Encoding": "8bit",
          "Plural-Forms": "nplurals=1; plural=0;"}


def _project(root: Path, notebooks: dict[str, list[tuple[str, list[str]]]],
             translations: dict[str, dict[str, str]]) -> Path:
    """Upstream notebooks (name -> [(source, tags)]) and their catalogs; returns docs/."""
    docs = root / "docs"
    docs.mkdir(parents=True)
    (docs / "index.rst").write_text("Sandbox\n=======\n", encoding="utf-8")
    for name, cells in notebooks.items():
        notebook = nbformat.v4.new_notebook()
        notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                           "language": "python"}
        for number, (source, tags) in enumerate(cells, start=1):
            cell = nbformat.v4.new_code_cell(source)
            cell.id = f"cell-{number}"
            if tags:
                cell.metadata["tags"] = tags
            notebook.cells.append(cell)
        nbformat.write(notebook, str(docs / f"{name}.ipynb"))
    catalog_dir = root / "locale" / "ko" / "LC_MESSAGES"
    catalog_dir.mkdir(parents=True)
    for name, pairs in translations.items():
        po = polib.POFile()
        po.metadata = dict(HEADER)
        for msgid, msgstr in pairs.items():
            po.append(polib.POEntry(msgid=msgid, msgstr=msgstr))
        catalogs.save(po, catalog_dir / f"{name}.po")
    return docs


def _build(root: Path, docs: Path, **kwargs) -> build.BuildSummary:
    return build.build(srcdir=docs, locale_dir=root / "locale",
                       out_dir=root / "_build" / "notebooks" / "ko", **kwargs)


def _outputs(root: Path, name: str) -> list[str]:
    """Each cell's outputs of the executed notebook, as one text per cell."""
    path = root / "_build" / "notebooks" / "executed" / f"{name}.ipynb"
    notebook = nbformat.read(str(path), as_version=4)
    texts = []
    for cell in notebook.cells:
        parts = []
        for output in cell.get("outputs", []):
            if output.output_type == "error":
                parts.append(f"{output.ename}: {output.evalue}")
            elif output.output_type == "stream":
                parts.append(output.text)
        texts.append("".join(parts))
    return texts


def test_changed_string_passed_to_open_is_refused_before_anything_runs(tmp_path, monkeypatch,
                                                                        jaxko):
    upstream = "with open('result.txt', 'w') as f:\n    f.write('done')"
    translated = "with open('../../../escaped.txt', 'w') as f:\n    f.write('완료')"
    docs = _project(tmp_path, {"files": [("print('start')", []), (upstream, [])]},
                    {"files": {"print('start')": "print('시작')", upstream: translated}})
    monkeypatch.setenv("JAXKO_ROOT", str(tmp_path))
    proc = jaxko("notebooks", "build", "--srcdir", str(docs), env={"JAXKO_ROOT": str(tmp_path)})
    assert proc.returncode == 1
    [error] = [line for line in proc.stderr.splitlines() if line.startswith("error:")]
    assert error.startswith("error: files.ipynb: cell 2: translated code cell changes a string "
                            "that code uses: line 1: 'result.txt' became '../../../escaped.txt', "
                            "and it is passed to open()")
    assert "LC_MESSAGES/files.po:" in error  # the msgstr's catalog line
    assert not (tmp_path / "_build" / "notebooks" / "ko" / "files.ipynb").exists()

    # Written anyway (--allow-unchecked-code), verify refuses it the same way, unexecuted.
    _build(tmp_path, docs, static_check=False)
    [result] = verify.verify(srcdir=docs, workers=1).results
    assert (result.status, result.cell, result.executed) == ("failed", 2, False)
    assert result.error.startswith("static check: line 1: 'result.txt' became")
    assert not (tmp_path.parent / "escaped.txt").exists()


def test_sandbox_refuses_writes_processes_and_network_and_names_the_cell(tmp_path, monkeypatch):
    """One verify run: four notebooks whose translated strings steer upstream's code
    out of the box, and a clean one that writes only where it may. Planted fault: a
    verify-cache entry recorded for the clean notebook without the sandbox."""
    outside = tmp_path / "outside"
    outside.mkdir()
    notebooks = {
        # Each payload cell is tagged raises-exception: the refusal must fail the
        # notebook even where a raised error is allowed.
        "writes": [
            ("import io, os, pathlib, shutil\nname = 'result'", []),
            ("fd = os.open(name + '.os', os.O_WRONLY | os.O_CREAT)\nos.close(fd)",
             ["raises-exception"]),
            ("pathlib.Path(name + '.path').write_bytes(b'x')", ["raises-exception"]),
            ("io.open(name + '.io', 'a').close()", ["raises-exception"]),
            ("shutil.copy(os.devnull, name + '.copy')", ["raises-exception"]),
        ],
        "process": [
            ("import importlib, os\ncommand = 'echo hello'\nmodule, function = 'json', 'dumps'",
             []),
            ("print(os.popen(command).read())", ["raises-exception"]),
            ("print(getattr(importlib.import_module(module), function)(['echo', 'hi']))",
             ["raises-exception"]),
        ],
        "network": [
            ("import urllib.request\nurl = 'http://127.0.0.1:9/'", []),
            # Upstream's code catches the error itself: the refusal must still count.
            ("try:\n    urllib.request.urlopen(url, timeout=5)\nexcept OSError as error:\n"
             "    print('offline:', type(error).__name__)", []),
        ],
        "clean": [
            ("import os, pathlib, socket, tempfile\nprint('hello')", []),
            ("pathlib.Path('notes.txt').write_text('local')\n"
             "pathlib.Path('~/settings').expanduser().write_text('home')\n"
             "handle, path = tempfile.mkstemp()\nos.close(handle)\n"
             "server = socket.create_server(('127.0.0.1', 0))\n"
             "socket.create_connection(server.getsockname()).close()\nprint('done')", []),
        ],
    }
    translations = {
        "writes": {notebooks["writes"][0][0]:
                   f"import io, os, pathlib, shutil\nname = '{outside}/result'"},
        "process": {notebooks["process"][0][0]:
                    "import importlib, os\ncommand = 'touch pwned'\n"
                    "module, function = 'subprocess', 'run'"},
        "network": {notebooks["network"][0][0]: "import urllib.request\nurl = 'http://example.com/'"},
        "clean": {notebooks["clean"][0][0]: "import os, pathlib, socket, tempfile\nprint('안녕')"},
    }
    docs = _project(tmp_path, notebooks, translations)
    monkeypatch.setenv("JAXKO_ROOT", str(tmp_path))
    summary = _build(tmp_path, docs)
    assert summary.errors == []  # strings only, none passed straight to an API

    # Planted: a pass of the clean notebook recorded by a verify without the sandbox.
    korean = sources.read_ipynb_file(tmp_path / "_build" / "notebooks" / "ko" / "clean.ipynb")
    unboxed = verify.cache_key(korean, [], verify.environment("cpu"),
                               {"platform": "cpu", "timeout": 600})
    cache = verify.cache_path(tmp_path)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps({"version": verify.CACHE_VERSION, "seconds": {},
                                 "passes": {"clean.ipynb": {"key": unboxed, "seconds": 1.0}}}))

    report = verify.verify(srcdir=docs, workers=1)
    results = {r.notebook: r for r in report.results}
    # audit hooks, with Landlock where this machine's kernel offers it
    from jaxko.notebooks import sandbox
    assert report.options["sandbox"] == sandbox.protection(False)
    assert {r.sandbox for r in report.results if r.executed} == {sandbox.protection(False)}

    writes = results["writes.ipynb"]
    assert (writes.status, writes.cell) == ("failed", 2)
    assert writes.error == (f"jaxko sandbox: writing outside the notebook's folder is not "
                            f"allowed ({outside}/result.os) (and 3 more)")
    texts = _outputs(tmp_path, "writes")
    for cell, suffix in ((1, ".os"), (2, ".path"), (3, ".io"), (4, ".copy")):
        assert f"PermissionError: [Errno 13] jaxko sandbox: writing outside the notebook's " \
               f"folder is not allowed ({outside}/result{suffix})" in texts[cell]
    assert list(outside.iterdir()) == []

    process = results["process.ipynb"]
    assert (process.status, process.cell) == ("failed", 2)
    assert process.error == ("jaxko sandbox: starting a process is not allowed (touch pwned) "
                             "(and 1 more)")
    assert "starting a process is not allowed (echo hi)" in _outputs(tmp_path, "process")[2]

    network = results["network.ipynb"]
    assert (network.status, network.cell) == ("failed", 2)
    assert network.error == "jaxko sandbox: network access is not allowed (example.com)"
    assert "offline: URLError" in _outputs(tmp_path, "network")[1]  # caught, yet failed

    clean = results["clean.ipynb"]
    assert (clean.status, clean.executed) == ("passed", True)  # not "cached": key has the box
    assert "done" in _outputs(tmp_path, "clean")[1]
    assert clean.key != unboxed and clean.exemption is None


EXEMPT_LINE = "!echo upstream > made.txt"
EXEMPTION = scope.SandboxExemption("shell.*", "test: upstream's own shell line",
                                   commands=("echo upstream > made.txt",))


def test_exemption_allows_upstream_shell_line_and_refuses_any_other(tmp_path, monkeypatch):
    """One verify run of three notebooks of upstream's code: ``shell``, exempt, with a
    shell line the exemption does not name; ``shell_ok``, exempt, without that line (an
    exemption of its own, the same commands); ``plain``, the same code as ``shell_ok``
    under a name no exemption matches."""
    cells = [(EXEMPT_LINE, []), ("print(open('made.txt').read())", []),
             ("!echo other > made.txt", ["raises-exception"])]
    docs = _project(tmp_path, {"shell": cells, "shell_ok": cells[:2], "plain": cells[:2]}, {})
    monkeypatch.setenv("JAXKO_ROOT", str(tmp_path))
    _build(tmp_path, docs)
    exemptions = (EXEMPTION, dataclasses.replace(EXEMPTION, pattern="shell_ok.*"))
    report = verify.verify(srcdir=docs, workers=1, exemptions=exemptions)
    results = {r.notebook: r for r in report.results}
    result = results["shell.ipynb"]
    # The exempt line ran (cell 2 read its file); the other line of the same notebook,
    # upstream's too but not in the exemption, was refused.
    assert (result.status, result.cell) == ("failed", 3)
    assert result.error == ("jaxko sandbox: running a command other than upstream's own is "
                            "not allowed (echo other > made.txt)")
    assert result.exemption == EXEMPTION.as_dict()
    assert "upstream" in _outputs(tmp_path, "shell")[1]

    # Without the refused line it passes, and every report says what was in force.
    result = results["shell_ok.ipynb"]
    assert result.status == "passed"
    assert result.as_dict()["sandbox_exemption"]["commands"] == ["echo upstream > made.txt"]
    assert "upstream" in _outputs(tmp_path, "shell_ok")[1]
    report = verify.VerifyReport("cpu", 1, {}, {"sandbox": "audit-hooks"}, [result])
    verify.write_junit(report, tmp_path / "junit.xml")
    junit = ElementTree.parse(tmp_path / "junit.xml").getroot()
    assert [p.get("value") for p in junit.iter("property") if p.get("name") == "sandbox"] == \
        ["audit-hooks"]
    assert [p.get("value") for p in junit.iter("property")
            if p.get("name") == "sandbox-exemption"] == ["test: upstream's own shell line"]
    assert "sandbox exemption: test: upstream's own shell line" in verify.format_table(report)

    # Without the exemption, upstream's own line is refused too.
    result = results["plain.ipynb"]
    assert (result.status, result.cell, result.exemption) == ("failed", 1, None)
    assert result.error == ("jaxko sandbox: starting a process is not allowed "
                            "(echo upstream > made.txt)")


def test_unchecked_code_runs_in_the_sandbox_and_cannot_undo_it(tmp_path, monkeypatch):
    """--allow-unchecked-code: any Python may run, still boxed; replacing the hook's code
    is refused, and so is a changed shell line in an exempt notebook."""
    upstream = [(EXEMPT_LINE, []), ("print(open('made.txt').read())", [])]
    tamper = ("import gc\n"
              "hooks = [f for f in gc.get_objects() if getattr(f, '__name__', '') == 'hook'\n"
              "         and getattr(f, '__code__', None) is not None\n"
              "         and f.__code__.co_filename.endswith('sandbox.py')]\n"
              "hooks[0].__code__ = (lambda event, args: None).__code__")
    docs = _project(tmp_path, {"shell": upstream, "tamper": [("print('hi')", [])]},
                    {"shell": {EXEMPT_LINE: "!echo pwned > made.txt"},
                     "tamper": {"print('hi')": tamper}})
    _build(tmp_path, docs, static_check=False)
    monkeypatch.setenv("JAXKO_ROOT", str(tmp_path))
    report = verify.verify(srcdir=docs, workers=1, static_check=False, exemptions=(EXEMPTION,))
    results = {r.notebook: r for r in report.results}
    assert (results["shell.ipynb"].status, results["shell.ipynb"].cell) == ("failed", 1)
    assert results["shell.ipynb"].error == ("jaxko sandbox: running a command other than "
                                            "upstream's own is not allowed (echo pwned > made.txt)")
    assert (results["tamper.ipynb"].status, results["tamper.ipynb"].cell) == ("failed", 1)
    assert results["tamper.ipynb"].error == ("jaxko sandbox: changing the sandbox is not "
                                             "allowed (__code__)")


def test_kernel_without_its_policy_does_not_start(tmp_path):
    from jaxko.notebooks import sandbox

    with pytest.raises(SystemExit, match=r"JAXKO_SANDBOX_POLICY is not set"):
        sandbox.find_policy(None, str(tmp_path))
    path = tmp_path / "sandbox.json"
    sandbox.write_policies(path, [sandbox.Policy("a.ipynb", str(tmp_path / "a"), "r", "h", "t",
                                                 "v")])
    with pytest.raises(SystemExit, match=r"no policy for a kernel started in"):
        sandbox.find_policy(str(path), str(tmp_path))
