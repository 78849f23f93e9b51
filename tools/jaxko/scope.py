"""What of the upstream docs is built, extracted and executed (one place for all stages)."""

from __future__ import annotations

import fnmatch
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

# Documents never read by Sphinx (relative to docs/).
ALWAYS_EXCLUDED = (
    "_build",
    "build",
    "README.md",
    "notebooks/README.md",
    "**.ipynb_checkpoints",
)

# Notebooks Sphinx builds but does not execute, each with its reason, as upstream's
# nb_execution_excludepatterns does. `jaxko notebooks verify` reports them as skipped.
# The list is exactly the built notebooks that cannot run on CPU here (measured with
# jax 0.10.2 by running all 52: every other one passes). Upstream's own list is not in
# the pinned copy; the issue counts 34 executed upstream, we execute 36: the TPU pages
# pallas/tpu/hardware (one display-only cell) and pallas/tpu/sparsecore (no code cell)
# run fine on CPU, which likely accounts for the two.
# A reason starting with "requires accelerators" and naming a GPU is attempted with
# `--platform gpu`; TPU-only ones stay skipped there too. A notebook that only needs
# packages the project does not install is not here: see REQUIREMENTS below.
EXECUTION_EXCLUDES: tuple[tuple[str, str], ...] = (
    # The Pallas pages: on CPU, those in INTERPRETED below run in Pallas's interpreter
    # instead (verify's interpret mode); the others' reason says what the interpreter
    # lacks, as measured. With --interpret off all of them are skipped for this reason.
    ("pallas/quickstart.*", "requires accelerators (GPU or TPU): Pallas kernels; CPU only runs them in interpret mode"),
    ("pallas/pipelining.*", "requires accelerators (GPU or TPU): Pallas kernels; CPU only runs them in interpret mode"),
    ("pallas/gpu/pipelining.*", "requires accelerators (NVIDIA GPU, Hopper or newer): Pallas Mosaic GPU; "
     "not interpretable: cell 10 passes plgpu.emit_pipeline(delay_release=1), which jax 0.10.2 "
     "does not accept (TypeError, on a GPU too)"),
    ("pallas/tpu/pipelining.*", "requires accelerators (TPU): Pallas TPU kernels"),
    ("pallas/tpu/distributed.*", "requires accelerators (TPU): several TPU chips; not interpretable: "
     "cell 2 asserts \"TPU\" in jax.devices()[0].device_kind"),
    ("pallas/tpu/sparse.*", "requires accelerators (TPU): Pallas TPU kernels; not interpretable: cell 2 asserts "
     "\"TPU\" in jax.devices()[0].device_kind"),
    ("pallas/tpu/matmul.*", "requires accelerators (TPU): Pallas TPU kernels; too slow to "
     "interpret: cell 12's 4096x4096x4096 kernel (a 32x32x32 grid) had not finished after 6 "
     "minutes in TPU interpret mode, and cells 29, 37 and 41 time 100 runs each of such kernels"),
    ("pallas/tpu/core_map.*", "requires accelerators (TPU): several TPU cores; not interpretable: "
     "cell 7's pltpu.create_tensorcore_mesh reads the device's num_cores, which a CPU device "
     "lacks (AttributeError), and cell 19 needs get_tpu_info().sparse_core"),
    ("notebooks/layout.*", "requires accelerators (TPU): asserts the layouts XLA picks on TPU; CPU picks others"),
    ("notebooks/cute_dsl_jax.*", "requires accelerators (NVIDIA GPU): CUTLASS CuTe DSL, nvidia-smi"),
    ("notebooks/host-offloading.*", "requires accelerators (GPU or TPU): device-to-host memory offloading"),
    ("notebooks/convolutions.*", "network: scipy.datasets downloads a sample image (needs pooch)"),
    ("notebooks/neural_network_with_tfds_data.*", "extra requirements: tensorflow, tensorflow-datasets; network (MNIST)"),
    ("notebooks/Neural_Network_and_Data_Loading.*", "network: downloads MNIST; slow"),
    ("distributed_data_loading.*", "extra requirements: tensorflow; written for multi-host TPU"),
)

# Files a notebook needs beside it (relative to its folder), staged from upstream.
# The offline upstream copy holds documents only; a clone of the tag has these too.
SUPPORT_FILES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("ffi.*", ("ffi",)),  # `!cmake ... ffi` builds the C++ handler it loads
)

ACCELERATOR_REASON = "requires accelerators"


@dataclass(frozen=True)
class Interpretation:
    """How one Pallas notebook runs on CPU in Pallas's interpreter (``notebooks verify``'s
    interpret mode), switched on in its kernel before the first cell
    (:mod:`jaxko.notebooks.interpret`); the notebook itself is not changed.

    Each field is the least the notebook was measured to need: ``interpreter`` "hlo" is
    ``pallas_call(..., interpret=True)`` for every call (Pallas's generic interpreter),
    "tpu" is TPU interpret mode (``pltpu.force_tpu_interpret_mode``: TPU memory spaces,
    DMAs and semaphores simulated). ``devices``: CPU devices
    (``--xla_force_host_platform_device_count``). ``chip``: the TPU generation
    ``pltpu.get_tpu_info()`` describes on CPU (a ``ChipVersion`` value such as "v5e"),
    for kernels whose lowering asks it (block tiling); "" leaves it failing as on CPU."""

    pattern: str  # the notebook, as in EXECUTION_EXCLUDES
    reason: str   # why this means, measured
    interpreter: str = "hlo"  # "hlo" | "tpu"
    devices: int = 1
    chip: str = ""

    def as_dict(self) -> dict:
        """As report.json shows it (and the cache key hashes it)."""
        return {"interpreter": self.interpreter, "devices": self.devices, "chip": self.chip,
                "reason": self.reason}


INTERPRETERS = ("hlo", "tpu")

# The Pallas notebooks that verify runs in Pallas's interpreter on CPU (interpret mode,
# the default there; `--interpret off` skips them as EXECUTION_EXCLUDES says). Measured
# with jax 0.10.2 on every Pallas page (docs/notebooks.md, "Pallas on CPU"); the pages
# not here stay skipped with what the interpreter lacks in their reason above.
INTERPRETED: tuple[Interpretation, ...] = (
    Interpretation(
        "pallas/quickstart.*", "every kernel runs in Pallas's generic interpreter "
        "(interpret=True), as the page itself says CPU can"),
    Interpretation(
        "pallas/pipelining.*", "generic interpreter: TPU interpret mode refuses cell 21's "
        "deliberately incorrect kernel (\"Revisited block ... of output 0\"), which the page "
        "runs to show its wrong result"),
    Interpretation(
        "pallas/tpu/pipelining.*", "TPU interpret mode (cells 9-17 use SMEM, pltpu.sync_copy "
        "and pltpu.emit_pipeline); cell 14's pl.BoundedSlice asks get_tpu_info() for the "
        "tiling, so the interpreter simulates a TPU v5e", interpreter="tpu", chip="v5e"),
)


@dataclass(frozen=True)
class Requirement:
    """Modules a notebook's upstream code imports that the project does not install.

    ``jaxko notebooks verify`` asks the kernel's Python (same interpreter, same
    ``PYTHONPATH`` as the kernel) whether it can import them: it runs the notebook when
    it can, and reports it skipped, naming the missing modules and ``install_hint``,
    when it cannot. The versions found are part of the notebook's cache key."""

    pattern: str  # the notebook, as in EXECUTION_EXCLUDES
    modules: tuple[str, ...]  # top-level import names, as the notebook imports them
    install_hint: str  # what to run to get them (shown when one is missing)


NOTEBOOK_EXTRAS_HINT = ("pip install -e '.[notebook-extras]' (or pip install --target DIR "
                        "and run verify with PYTHONPATH=DIR; docs/notebooks.md)")

# The executed notebooks whose code needs more than `make setup` installs. The
# packages are the `notebook-extras` extra of pyproject.toml (not installed by
# `make setup`: TensorFlow and PyTorch are large).
REQUIREMENTS: tuple[Requirement, ...] = (
    Requirement("jep/9407-type-promotion.*", ("networkx", "pandas", "tensorflow", "torch"),
                NOTEBOOK_EXTRAS_HINT),
)


@dataclass(frozen=True)
class KnownError:
    """One cell of an upstream notebook that raises on today's libraries, as upstream's
    own code does (the English notebook fails there the same way); the translation may
    not change that code, so verify accepts exactly this exception in exactly this cell.

    Strict, as a strict xfail: another exception there fails the notebook, and so does
    the cell no longer raising (the entry must then be removed). A pass with known
    errors says so, naming the cells, in every report."""

    pattern: str    # the notebook, as in EXECUTION_EXCLUDES
    cell_id: str    # the cell's id (``id``, or Colab's ``metadata.id`` in format 4.0)
    exception: str  # the exception's class name, exactly as the error output's ename
    reason: str     # why upstream's code raises it, measured

    def as_dict(self) -> dict:
        """As report.json shows it (and the cache key hashes it)."""
        return {"cell_id": self.cell_id, "exception": self.exception, "reason": self.reason}


# Measured with jax 0.10.2, NumPy 2.4.6 and PyTorch 2.13.0 on the English notebook and
# the Korean one alike: each fails in these cells only, the same way.
KNOWN_ERRORS: tuple[KnownError, ...] = (
    KnownError("jep/9407-type-promotion.*", "JNpNwSwjihCb", "OverflowError",
               "upstream's demonstration of NumPy 1's value-based promotion "
               "(int8 array + 1000); NumPy 2 (NEP 50) refuses the Python int 1000 for int8"),
    KnownError("jep/9407-type-promotion.*", "U2demrM6da9Y", "KeyError",
               "upstream's PyTorch promotion table: today's PyTorch promotes complex64 with "
               "float16 to complex32, which the table's dtype dict lacks (KeyError: "
               "torch.complex32)"),
)


def myst_nb_execution_excludes() -> list[str]:
    """What MyST-NB must not execute (the English site's ``nb_execution_excludepatterns``):
    the exclusions, and the notebooks that need extra modules or raise known upstream
    errors (MyST-NB knows neither; only verify runs them, the English page keeps
    upstream's stored outputs)."""
    patterns = [pattern for pattern, _reason in EXECUTION_EXCLUDES]
    for entry in (*REQUIREMENTS, *KNOWN_ERRORS):
        if entry.pattern not in patterns:
            patterns.append(entry.pattern)
    return patterns


def matches(docname_or_path: str, pattern: str) -> bool:
    """Whether a notebook (docname, or source path with its suffix) is ``pattern`` of one
    of the per-notebook tables here ("pallas/quickstart.*" matches both forms)."""
    name = docname_or_path.replace("\\", "/")
    return fnmatch.fnmatch(name, pattern) or fnmatch.fnmatch(name + ".x", pattern)


def interpretation(docname_or_path: str,
                   interpreted: tuple[Interpretation, ...] = INTERPRETED
                   ) -> Interpretation | None:
    """How a notebook runs in Pallas's interpreter on CPU, or None (not a Pallas page that can)."""
    return next((entry for entry in interpreted if matches(docname_or_path, entry.pattern)), None)


@dataclass(frozen=True)
class SandboxExemption:
    """What upstream's own code in one notebook does that the sandbox otherwise refuses
    (:mod:`jaxko.notebooks.sandbox`): exact shell commands, argument lists and files.

    Nothing is allowed by kind ("any cmake"), only these exact commands and paths: the
    static check guarantees the translated code around them is upstream's."""

    pattern: str  # the notebook, as in EXECUTION_EXCLUDES
    reason: str
    commands: tuple[str, ...] = ()  # as IPython's `!`/`%pip` hands them to the shell;
    # "{python}" stands for this Python, quoted as `%pip` quotes it
    argvs: tuple[tuple[str, ...], ...] = ()  # subprocess argument lists, exactly
    writes: tuple[str, ...] = ()  # files outside the notebook's folder, exactly

    def commands_for(self, python: str = sys.executable) -> tuple[str, ...]:
        """The commands with ``{python}`` replaced by ``python``, quoted for the shell."""
        return tuple(c.replace("{python}", shlex.quote(python)) for c in self.commands)

    def as_dict(self) -> dict:
        """As report.json shows it (and the cache key hashes it)."""
        return {"reason": self.reason, "commands": list(self.commands),
                "argvs": [list(a) for a in self.argvs], "writes": list(self.writes)}


# The executed notebooks whose upstream code starts processes or writes outside its own
# folder, found by running all of them in the sandbox (docs/notebooks.md). Every other
# notebook runs with no exemption.
SANDBOX_EXEMPTIONS: tuple[SandboxExemption, ...] = (
    SandboxExemption(
        "ffi.*", "cell 8 builds the C++ example beside it with upstream's three `!cmake` "
        "lines (cmake itself runs outside the sandbox)",
        commands=("cmake -DCMAKE_BUILD_TYPE=Release -B ffi/_build ffi",
                  "cmake --build ffi/_build", "cmake --install ffi/_build")),
    SandboxExemption(
        "notebooks/colocated-python.*", "cells 9 and 16 write /tmp/foo from a colocated "
        "Python function: upstream's example of a side effect",
        writes=("/tmp/foo",)),
    SandboxExemption(
        "notebooks/cute_dsl_jax.*", "GPU only: cells 6 and 8 run nvidia-smi, cell 10 "
        "`%pip install`s the CUTLASS DSL (pip runs outside the sandbox)",
        commands=("nvidia-smi", '{python} -m pip install "nvidia-cutlass-dsl[cu13]" --quiet'),
        argvs=(("nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"),)),
)


def sandbox_exemption(docname_or_path: str,
                      exemptions: tuple[SandboxExemption, ...] = SANDBOX_EXEMPTIONS
                      ) -> SandboxExemption | None:
    """The sandbox exemption of a notebook, or None (the usual case)."""
    return next((entry for entry in exemptions if matches(docname_or_path, entry.pattern)), None)


def requirement(docname_or_path: str,
                requirements: tuple[Requirement, ...] = REQUIREMENTS) -> Requirement | None:
    """The extra modules a notebook needs, or None (the usual case)."""
    return next((entry for entry in requirements if matches(docname_or_path, entry.pattern)),
                None)


def known_errors(docname_or_path: str,
                 known: tuple[KnownError, ...] = KNOWN_ERRORS) -> tuple[KnownError, ...]:
    """The known upstream errors of a notebook's cells (usually none)."""
    return tuple(entry for entry in known if matches(docname_or_path, entry.pattern))


def attempted_on(reason: str, platform: str) -> bool:
    """Whether a notebook excluded for ``reason`` is still run on ``platform``."""
    return platform == "gpu" and reason.startswith(ACCELERATOR_REASON) and "GPU" in reason


def support_files(docname_or_path: str) -> tuple[str, ...]:
    """Paths (relative to the notebook's folder) the notebook needs beside it."""
    return next((needed for pattern, needed in SUPPORT_FILES
                 if matches(docname_or_path, pattern)), ())


def execution_excluded(docname_or_path: str) -> str | None:
    """The reason a notebook is not executed, or None when it is."""
    return next((reason for pattern, reason in EXECUTION_EXCLUDES
                 if matches(docname_or_path, pattern)), None)


def notebook_twins(srcdir: Path) -> list[str]:
    """MyST twins of ``.ipynb`` notebooks: the ``.ipynb`` is the built source.

    Upstream keeps both formats in sync with jupytext; stored outputs live only in the
    ``.ipynb``, so that is the one Sphinx reads (``.ipynb`` precedes ``.md`` in
    ``source_suffix``). Excluding the ``.md`` twin explicitly avoids Sphinx's
    "multiple files found" warning.
    """
    twins = []
    for ipynb in sorted(srcdir.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in ipynb.parts:
            continue
        md = ipynb.with_suffix(".md")
        if md.is_file():
            twins.append(md.relative_to(srcdir).as_posix())
    return twins
