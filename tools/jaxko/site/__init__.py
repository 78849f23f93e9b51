"""The Korean site's build driver: what runs in ``jaxko``'s own process around Sphinx.

Two rooms, one interface. This package is the driver: :mod:`.build` (``jaxko site
build``: input checks, the catalog gate, stats, Korean notebooks, then sphinx-build),
:mod:`.gate` (the gate's first layer: the catalogs Sphinx reads), :mod:`.early_sphinx`
(Sphinx's process started ahead), :mod:`.watch` (``jaxko site watch``), :mod:`.audit`
(``jaxko site audit``) and :mod:`.state` (what builds keep). The Sphinx extensions
that run inside the build are :mod:`jaxko.site.ext` (``extensions += ["jaxko.site.ext"]``
in conf.py). The driver never imports an extension module, nor an extension a driver
module (``tests/test_layers.py``): the driver talks to the extensions only through
Sphinx config values (``-D`` on sphinx-build's command line, ``conf.py``) and files
(the gated catalogs, the stats and notebook-run files it names, the missing-files
report the extension writes where ``jaxko_missing_report`` says). Code both need
lives in a lower layer (:mod:`jaxko.fragments`, :mod:`jaxko.workflow.stats`).
"""
