"""Interpret mode: a Pallas notebook's kernels run on CPU in Pallas's interpreter.

``jaxko notebooks verify`` on CPU runs the Pallas pages of
:data:`jaxko.scope.INTERPRETED` this way (unless ``--interpret off``). The notebook is
not changed by a byte: the kernel launcher (:mod:`jaxko.notebooks.sandbox`) calls
:func:`switch_on` with the page's :class:`jaxko.scope.Interpretation` after ipykernel
has initialised and before the sandbox's audit hook is installed and the first cell
runs. What it sets is JAX's own global switch that ``pltpu.force_tpu_interpret_mode``
sets for its context: every ``pallas_call`` and ``core_map`` traced afterwards runs
with that ``interpret=`` value. Nothing of JAX is replaced: the kernels are real Pallas
kernels, interpreted.

A notebook run this way is reported as ``mode: "interpret"``, never as a run on the
hardware the page is written for (docs/notebooks.md).
"""

from __future__ import annotations

import os

MODE = "interpret"  # what report.json, the table, the JUnit XML and the site call it
HARDWARE = "native"  # the other mode: the kernels ran as written, on a device
DEVICE_COUNT_FLAG = "--xla_force_host_platform_device_count"


def xla_flags(existing: str, devices: int) -> str:
    """``XLA_FLAGS`` with the CPU device count for ``devices`` (others' flags kept)."""
    kept = [flag for flag in existing.split() if not flag.startswith(DEVICE_COUNT_FLAG + "=")]
    if devices > 1:
        kept.append(f"{DEVICE_COUNT_FLAG}={devices}")
    return " ".join(kept)


def switch_on(spec: dict, environ=os.environ) -> None:
    """Make every Pallas kernel of this process run in the interpreter ``spec`` names
    (:meth:`jaxko.scope.Interpretation.as_dict`). Call before the first cell and before
    JAX starts its backend (the device count is read then)."""
    devices = int(spec.get("devices") or 1)
    if devices > 1:
        environ["XLA_FLAGS"] = xla_flags(environ.get("XLA_FLAGS", ""), devices)
    from jax.experimental.pallas import tpu as pltpu

    if spec["interpreter"] == "tpu":
        pltpu.set_tpu_interpret_mode(pltpu.InterpretParams())
    elif spec["interpreter"] == "hlo":
        # The same global the TPU interpreter uses: pallas_call reads it as its
        # `interpret=` argument, and True is the generic interpreter's.
        pltpu.set_tpu_interpret_mode(True)
    else:
        raise ValueError(f"unknown Pallas interpreter {spec['interpreter']!r}")
    if spec.get("chip"):
        simulate_chip(spec["chip"])


def simulate_chip(chip: str) -> None:
    """``pltpu.get_tpu_info()`` on CPU describes the TPU generation ``chip`` (one core),
    through JAX's registry of device kinds, as the interpreter's TPU; the devices
    themselves stay CPU devices (``jax.devices()`` says so)."""
    from jax._src.pallas.mosaic import tpu_info

    version = tpu_info.ChipVersion(chip)
    tpu_info.registry["cpu"] = lambda: tpu_info._get_tpu_info_impl(version, 1)
