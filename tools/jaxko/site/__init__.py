"""Sphinx extensions of the Korean site (``extensions += ["jaxko.site"]`` in conf.py).

One extension per concern, each a module with its own ``setup``:

* :mod:`.i18n`: translated MyST/notebook messages parse as written (MyST-NB#587,
  MyST-Parser#444);
"""

from __future__ import annotations

MODULES = (
    "jaxko.site.i18n",
)


def setup(app):
    for name in MODULES:
        app.setup_extension(name)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
