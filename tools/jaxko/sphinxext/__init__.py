"""Sphinx extensions that stand in for upstream's local ones (written fresh).

Upstream's docs/sphinxext/ is not part of the pinned documents; what its extensions
do is reimplemented here, one module each:

* :mod:`.jax_roles`       -- ``:jax-issue:`` and ``:doi:`` roles
* :mod:`.config_options`  -- the ``list_config_options`` directive
* :mod:`.tagged_block`    -- the ``tagged-block`` directive (source_include)
* :mod:`.strict_include`  -- a missing ``include`` is a build error, not a warning
* :mod:`.gettext_filters` -- stored notebook outputs never become messages
* :mod:`.translated_markup` -- a msgstr that reads as block markup keeps its node kind
"""
