"""What of the upstream docs is built, extracted and executed (one place for all stages)."""

from __future__ import annotations

import fnmatch
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
# A reason starting with "requires accelerators" is attempted with --platform gpu.
EXECUTION_EXCLUDES: tuple[tuple[str, str], ...] = (
    ("pallas/quickstart.*", "requires accelerators (Pallas kernels run on TPU/GPU)"),
    ("pallas/pipelining.*", "requires accelerators (Pallas kernels run on TPU/GPU)"),
    ("pallas/gpu/pipelining.*", "requires accelerators (Pallas Mosaic GPU)"),
    ("pallas/tpu/pipelining.*", "requires accelerators (TPU)"),
    ("pallas/tpu/distributed.*", "requires accelerators (several TPU chips)"),
    ("pallas/tpu/sparse.*", "requires accelerators (TPU)"),
    ("pallas/tpu/matmul.*", "requires accelerators (TPU)"),
    ("pallas/tpu/core_map.*", "requires accelerators (TPU)"),
    ("pallas/tpu/sparsecore.*", "requires accelerators (TPU SparseCore)"),
    ("pallas/tpu/hardware.*", "requires accelerators (TPU)"),
    ("notebooks/cute_dsl_jax.*", "requires accelerators (NVIDIA GPU and CUTLASS)"),
    ("notebooks/host-offloading.*", "requires accelerators (host offloading from device memory)"),
    ("notebooks/neural_network_with_tfds_data.*", "extra requirements: tensorflow-datasets, network"),
    ("notebooks/Neural_Network_and_Data_Loading.*", "extra requirements: torch, torchvision, network"),
    ("jep/9407-type-promotion.*", "extra requirements: networkx, pandas, tensorflow, torch"),
    ("distributed_data_loading.*", "extra requirements: tensorflow; written for multi-host TPU"),
)


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
