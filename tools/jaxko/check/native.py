"""The native kernel of ``jaxko check`` (``_kernel.pyx``, built by ``pip install -e .``),
or None where it was not built: every user then falls back to its Python twin."""

try:
    from jaxko.check import _kernel as kernel
except ImportError:  # no C compiler at install time
    kernel = None
