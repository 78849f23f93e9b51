"""`notebooks verify`'s interpret mode: Pallas pages run on CPU in Pallas's interpreter.

Real JAX, real Pallas kernels, real kernels of the sandbox: a small Korean fixture page
at the path of a Pallas page (``pallas/quickstart``, so the real ``scope`` data applies:
excluded on CPU, interpreted in interpret mode), and once the real Korean
``pallas/quickstart`` built from the committed catalogs. Each verify starts a kernel
and imports JAX (a few seconds); the real page takes about half a minute.

The fixture page's interpret-mode pass is run once per module by the CLI
(``interpreted``); the tests that read it, or start from a project holding that pass,
work on copies (``passed_project``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from xml.etree import ElementTree

import pytest

from conftest import run_jaxko
from jaxko import catalogs, scope
from jaxko.notebooks import build, interpret, verify

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "pallas"
DOCS = FIXTURES / "docs"
PAGE = "pallas/quickstart.ipynb"


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A project root with a writable copy of the Pallas fixture's catalogs, built."""
    shutil.copytree(FIXTURES / "locale", tmp_path / "locale")
    monkeypatch.setenv("JAXKO_ROOT", str(tmp_path))
    _build(tmp_path)
    return tmp_path


@pytest.fixture(scope="module")
def interpreted(tmp_path_factory):
    """The fixture project built, then verified once by the CLI (interpret mode, on CPU):
    ``root``, ``built`` (the Korean notebook's bytes before the run) and ``proc``."""
    root = tmp_path_factory.mktemp("interpreted")
    shutil.copytree(FIXTURES / "locale", root / "locale")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("JAXKO_ROOT", str(root))
        _build(root)
    built = _korean(root).read_bytes()
    proc = run_jaxko("notebooks", "verify", "--srcdir", str(DOCS), "-n", "1",
                     env={"JAXKO_ROOT": str(root)})
    return {"root": root, "built": built, "proc": proc}


@pytest.fixture
def passed_project(interpreted, tmp_path, monkeypatch) -> Path:
    """A copy of ``interpreted``'s project: its verify cache holds the page's pass."""
    project = tmp_path / "project"
    shutil.copytree(interpreted["root"], project)
    monkeypatch.setenv("JAXKO_ROOT", str(project))
    return project


def _build(project: Path) -> None:
    summary = build.build(srcdir=DOCS, locale_dir=project / "locale",
                          out_dir=project / "_build" / "notebooks" / "ko")
    assert not summary.errors, [e.format() for e in summary.errors]


def _korean(project: Path) -> Path:
    return project / "_build" / "notebooks" / "ko" / PAGE


def _plant(project: Path, old: str, new: str) -> None:
    """Change the Korean kernel cell's msgstr (a translator's slip) and rebuild."""
    path = project / "locale" / "ko" / "LC_MESSAGES" / "pallas" / "quickstart.po"
    po = catalogs.load(path)
    entry = next(e for e in po if "def matmul_kernel" in e.msgid)
    assert old in entry.msgstr
    entry.msgstr = entry.msgstr.replace(old, new)
    catalogs.save(po, path)
    _build(project)


def test_pallas_page_passes_in_interpret_mode_and_is_reported_as_such(interpreted,
                                                                      passed_project, jaxko):
    project = passed_project  # a copy of the project the CLI run below verified
    downloaded = interpreted["built"]
    env = {"JAXKO_ROOT": str(project)}
    proc = interpreted["proc"]
    assert proc.returncode == 0, proc.stdout + proc.stderr
    row = next(line for line in proc.stdout.splitlines() if line.startswith(PAGE))
    assert "passed (interpret mode)" in row
    assert "generic interpreter (interpret=True) on CPU, not a hardware run" in row
    assert "(1 of them in interpret mode)" in proc.stdout.splitlines()[-1]

    out = project / "_build" / "notebooks"
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    [result] = report["results"]
    assert (result["status"], result["mode"], result["executed"]) == ("passed", "interpret", True)
    assert result["interpretation"]["interpreter"] == "hlo"
    assert report["options"]["interpret"] == "auto"
    [case] = ElementTree.parse(out / "junit.xml").getroot().iter("testcase")
    properties = {p.get("name"): p.get("value") for p in case.iter("property")}
    assert properties["mode"] == "interpret"
    assert "not a hardware run" in properties["interpretation"]
    assert case.find("skipped") is None and case.find("failure") is None

    # The notebook readers download is byte for byte as built; the run's outputs are
    # kept apart from the executed notebooks whose outputs the site shows.
    assert _korean(project).read_bytes() == downloaded
    assert not (out / "executed" / PAGE).exists()
    ran = (out / "interpreted" / PAGE).read_text(encoding="utf-8")
    assert "커널 결과:" in ran and "장치: 1 cpu" in ran

    # Cached as an interpret-mode pass, and shown as one.
    again = verify.verify(srcdir=DOCS, workers=1)
    [cached] = again.results
    assert (cached.status, cached.mode, cached.shown_status) == \
        ("cached", "interpret", "cached (interpret mode)")

    # Off: skipped for the page's exclusion reason, as before interpret mode existed.
    proc = jaxko("notebooks", "verify", "--srcdir", str(DOCS), "--interpret", "off", env=env)
    assert proc.returncode == 0
    [result] = json.loads((out / "report.json").read_text(encoding="utf-8"))["results"]
    assert (result["status"], result["mode"], result["executed"]) == ("skipped", None, False)
    assert result["error"] == scope.execution_excluded(PAGE)
    assert report_options(out)["interpret"] == "off"
    [case] = ElementTree.parse(out / "junit.xml").getroot().iter("testcase")
    assert case.find("skipped").get("message") == scope.execution_excluded(PAGE)


def report_options(out: Path) -> dict:
    return json.loads((out / "report.json").read_text(encoding="utf-8"))["options"]


def test_planted_slip_in_a_korean_kernel_fails_naming_its_cell(project):
    # A translated string the kernel uses (einsum's subscripts): the static check lets
    # strings change, so only running the kernel finds that it computes a transpose.
    _plant(project, "'ij,jk->ik'", "'ij,jk->ki'")
    [result] = verify.verify(srcdir=DOCS, workers=1).results
    assert (result.status, result.mode, result.cell) == ("failed", "interpret", 2)
    assert result.error == "AssertionError: 커널이 다른 것을 계산했습니다"
    assert result.shown_status == "failed (interpret mode)"
    table = verify.format_table(verify.VerifyReport("cpu", 1, {}, {}, [result]))
    assert "failed (interpret mode)" in table and "AssertionError" in table


def test_a_slip_that_raises_in_the_kernel_is_caught_too(project):
    _plant(project, "'ij,jk->ik'", "'ij,jk->iq'")  # q: in no operand
    [result] = verify.verify(srcdir=DOCS, workers=1).results
    assert (result.status, result.cell) == ("failed", 2)
    assert result.error.startswith("ValueError:")


def test_device_count_and_simulated_chip_are_the_interpretation_s(passed_project):
    """An interpretation's CPU devices and TPU chip reach the kernel; its key is its own:
    the project holds the page's pass with the generic interpreter (hlo), which the TPU
    interpretation does not reuse."""
    project = passed_project
    hlo = verify.verify(srcdir=DOCS, workers=1)
    assert (hlo.results[0].status, hlo.results[0].mode) == ("cached", "interpret")
    tpu = (scope.Interpretation("pallas/quickstart.*", "test", interpreter="tpu", devices=2,
                                chip="v5e"),)
    [result] = verify.verify(srcdir=DOCS, workers=1, interpreted=tpu).results
    assert (result.status, result.mode) == ("passed", "interpret")  # not hlo's cached pass
    assert result.interpretation == tpu[0].as_dict()
    ran = (project / "_build" / "notebooks" / "interpreted" / PAGE).read_text(encoding="utf-8")
    assert "장치: 2 cpu" in ran
    assert "2 CPU devices, get_tpu_info() simulates a TPU v5e" in verify.format_table(
        verify.VerifyReport("cpu", 1, {}, {}, [result]))


def test_without_the_interpreter_the_kernel_does_not_run_on_cpu(project, tmp_path):
    """What interpret mode switches on is what runs the kernel: the same page under a
    name that is neither excluded nor interpreted fails on CPU, in the kernel's cell."""
    docs = tmp_path / "docs"
    (docs / "pallas").mkdir(parents=True)
    shutil.copyfile(DOCS / PAGE, docs / "kernels.ipynb")
    (docs / "index.rst").write_text("Kernels\n=======\n\n.. toctree::\n\n   kernels\n")
    catalogs_dir = project / "locale" / "ko" / "LC_MESSAGES"
    shutil.copyfile(catalogs_dir / "pallas" / "quickstart.po", catalogs_dir / "kernels.po")
    build.build(srcdir=docs, locale_dir=project / "locale",
                out_dir=project / "_build" / "notebooks" / "ko", only=["kernels"])
    [result] = verify.verify(srcdir=docs, workers=1, only=["kernels"]).results
    assert (result.status, result.mode, result.cell) == ("failed", "native", 2)
    assert "Only interpret mode is supported on CPU backend" in result.error
    interpreted = (scope.Interpretation("kernels.*", "test"),)
    [result] = verify.verify(srcdir=docs, workers=1, only=["kernels"],
                             interpreted=interpreted).results
    assert (result.status, result.mode) == ("passed", "interpret")
    # A page interpret mode does not list stays skipped on CPU, as before.
    [result] = verify.verify(srcdir=DOCS, workers=1, interpreted=()).results
    assert (result.status, result.mode) == ("skipped", None)


def test_an_unknown_interpreter_is_refused_in_the_kernel():
    spec = {**scope.Interpretation("pallas/quickstart.*", "test").as_dict(),
            "interpreter": "mosaic"}
    with pytest.raises(ValueError, match="unknown Pallas interpreter 'mosaic'"):
        interpret.switch_on(spec, environ={})


def test_gpu_platform_never_interprets():
    assert scope.interpretation(PAGE) is not None
    # On a GPU the pages that can run there run natively (attempted_on), the others stay
    # skipped: interpret mode is CPU's.
    reason = scope.execution_excluded("pallas/tpu/pipelining.ipynb")
    assert not scope.attempted_on(reason, "gpu")
    assert scope.attempted_on(scope.execution_excluded(PAGE), "gpu")


def test_xla_flags_keep_the_caller_s_and_set_the_count_once():
    flags = "--xla_cpu_use_thunk_runtime=false --xla_force_host_platform_device_count=8"
    assert interpret.xla_flags(flags, 2) == \
        "--xla_cpu_use_thunk_runtime=false --xla_force_host_platform_device_count=2"
    assert interpret.xla_flags("", 1) == ""
    assert interpret.xla_flags("", 4) == "--xla_force_host_platform_device_count=4"


def test_every_interpretation_is_a_pallas_page_with_a_valid_means():
    for entry in scope.INTERPRETED:
        assert entry.pattern.startswith("pallas/") and entry.reason
        assert entry.interpreter in scope.INTERPRETERS and entry.devices >= 1
        assert scope.execution_excluded(entry.pattern.replace(".*", ".ipynb")), entry.pattern
        if entry.chip:
            from jax._src.pallas.mosaic import tpu_info

            tpu_info.ChipVersion(entry.chip)


def test_bad_interpret_option_is_one_line_exit_2(project, jaxko):
    proc = jaxko("notebooks", "verify", "--srcdir", str(DOCS), "--interpret", "always",
                 env={"JAXKO_ROOT": str(project)})
    assert proc.returncode == 2
    [line] = proc.stderr.strip().splitlines()
    assert "--interpret" in line and "'always'" in line


def test_help_says_what_interpret_mode_is(jaxko):
    proc = jaxko("notebooks", "verify", "--help")
    assert proc.returncode == 0
    text = " ".join(proc.stdout.split())
    assert "--interpret {auto,off}" in text and "never as a hardware run" in text


def test_real_quickstart_page_passes_in_interpret_mode(tmp_path, monkeypatch, shared_upstream):
    """The real Korean pallas/quickstart from the committed catalogs (about 30 s)."""
    root = Path(__file__).resolve().parents[1]
    monkeypatch.setenv("JAXKO_ROOT", str(tmp_path))
    docs = shared_upstream / "docs"
    summary = build.build(srcdir=docs, locale_dir=root / "locale",
                          out_dir=tmp_path / "_build" / "notebooks" / "ko",
                          only=["pallas/quickstart"])
    assert not summary.errors
    [result] = verify.verify(srcdir=docs, workers=1, only=["pallas/quickstart"]).results
    assert (result.status, result.mode, result.error) == ("passed", "interpret", "")


def test_site_says_interpret_mode_and_keeps_the_page_and_download_as_they_were(
        passed_project, tmp_path):
    """`jaxko site build` runs verify: the page says how (interpret mode, not hardware),
    shows upstream's stored outputs, and offers the Korean notebook as built. The project
    holds the page's interpret-mode pass, its outputs among the interpreted notebooks
    (which the page must not show), so verify finds it cached."""
    from jaxko.site import build as site_build
    from jaxko.site.ext import status

    project = passed_project
    assert "커널 결과:" in (project / "_build" / "notebooks" / "interpreted" / PAGE).read_text(
        encoding="utf-8")
    built = _korean(project).read_bytes()
    docs = tmp_path / "docs"
    shutil.copytree(DOCS, docs)
    root = Path(__file__).resolve().parents[1]
    result = site_build.build(execute=True, root=root, srcdir=docs, outdir=tmp_path / "html",
                              locale_dir=project / "locale")
    [run] = result.verify.results
    assert (run.status, run.mode) == ("cached", "interpret")
    page = (tmp_path / "html" / "pallas" / "quickstart.html").read_text(encoding="utf-8")
    _state, line = status.run_text({"status": "passed", "mode": "interpret"})
    assert 'class="jaxko-notebook-run jaxko-notebook-run-interpret" data-mode="interpret"' in page
    assert line in page and "하드웨어에서 실행한 결과가 아니" in line
    assert "kernel result: [28. 29. 30.]" in page and "devices: 4 tpu" in page
    assert "커널 결과: [28" not in page and "장치: 1 cpu" not in page
    assert _korean(project).read_bytes() == built
    download = tmp_path / "html" / "_downloads" / "ko" / PAGE
    assert download.read_bytes() == built


def test_run_lines_for_every_outcome():
    assert status_line({"status": "cached", "mode": "interpret"})[0] == "interpret"
    assert status_line({"status": "passed", "mode": "native", "platform": "gpu"}) == \
        ("passed", "실행 확인: 한국어 노트북의 모든 코드 셀이 GPU에서 실행되었습니다.")
    state, line = status_line({"status": "skipped", "error": "requires accelerators (TPU)"})
    assert state == "skipped" and "requires accelerators (TPU)" in line
    assert status_line({"status": "failed", "mode": "interpret"}) == ("", "")
    assert status_line(None) == ("", "")


def status_line(run):
    from jaxko.site.ext import status

    return status.run_text(run)
