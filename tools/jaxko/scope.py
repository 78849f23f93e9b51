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
# `--platform gpu`; TPU-only ones stay skipped there too.
EXECUTION_EXCLUDES: tuple[tuple[str, str], ...] = (
    ("pallas/quickstart.*", "requires accelerators (GPU or TPU): Pallas kernels; CPU only runs them in interpret mode"),
    ("pallas/pipelining.*", "requires accelerators (GPU or TPU): Pallas kernels; CPU only runs them in interpret mode"),
    ("pallas/gpu/pipelining.*", "requires accelerators (NVIDIA GPU, Hopper or newer): Pallas Mosaic GPU"),
    ("pallas/tpu/pipelining.*", "requires accelerators (TPU): Pallas TPU kernels"),
    ("pallas/tpu/distributed.*", "requires accelerators (TPU): several TPU chips"),
    ("pallas/tpu/sparse.*", "requires accelerators (TPU): asserts TPU devices"),
    ("pallas/tpu/matmul.*", "requires accelerators (TPU): Pallas TPU kernels"),
    ("pallas/tpu/core_map.*", "requires accelerators (TPU): several TPU cores"),
    ("notebooks/layout.*", "requires accelerators (TPU): asserts the layouts XLA picks on TPU; CPU picks others"),
    ("notebooks/cute_dsl_jax.*", "requires accelerators (NVIDIA GPU): CUTLASS CuTe DSL, nvidia-smi"),
    ("notebooks/host-offloading.*", "requires accelerators (GPU or TPU): device-to-host memory offloading"),
    ("notebooks/convolutions.*", "network: scipy.datasets downloads a sample image (needs pooch)"),
    ("notebooks/neural_network_with_tfds_data.*", "extra requirements: tensorflow, tensorflow-datasets; network (MNIST)"),
    ("notebooks/Neural_Network_and_Data_Loading.*", "network: downloads MNIST; slow"),
    ("jep/9407-type-promotion.*", "extra requirements: networkx, pandas, tensorflow, torch"),
    ("distributed_data_loading.*", "extra requirements: tensorflow; written for multi-host TPU"),
)

# Files a notebook needs beside it (relative to its folder), staged from upstream.
# The offline upstream copy holds documents only; a clone of the tag has these too.
SUPPORT_FILES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("ffi.*", ("ffi",)),  # `!cmake ... ffi` builds the C++ handler it loads
)

ACCELERATOR_REASON = "requires accelerators"


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
    name = docname_or_path.replace("\\", "/")
    for exemption in exemptions:
        if fnmatch.fnmatch(name, exemption.pattern) or fnmatch.fnmatch(name + ".x", exemption.pattern):
            return exemption
    return None


def attempted_on(reason: str, platform: str) -> bool:
    """Whether a notebook excluded for ``reason`` is still run on ``platform``."""
    return platform == "gpu" and reason.startswith(ACCELERATOR_REASON) and "GPU" in reason


def support_files(docname_or_path: str) -> tuple[str, ...]:
    """Paths (relative to the notebook's folder) the notebook needs beside it."""
    name = docname_or_path.replace("\\", "/")
    for pattern, needed in SUPPORT_FILES:
        if fnmatch.fnmatch(name, pattern) or fnmatch.fnmatch(name + ".x", pattern):
            return needed
    return ()


def execution_excluded(docname_or_path: str) -> str | None:
    """The reason a notebook is not executed, or None when it is."""
    name = docname_or_path.replace("\\", "/")
    for pattern, reason in EXECUTION_EXCLUDES:
        if fnmatch.fnmatch(name, pattern) or fnmatch.fnmatch(name + ".x", pattern):
            return reason
    return None


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
