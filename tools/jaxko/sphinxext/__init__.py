"""Sphinx extensions of the docs build itself, in any language (written fresh).

Two kinds, one module each. Neither knows the Korean site: the site's own extensions
are :mod:`jaxko.site.ext`, which may use these; these import nothing of the site.

Stand-ins for upstream's local extensions (upstream's docs/sphinxext/ is not part of
the pinned documents; what its extensions do is reimplemented here):

* :mod:`.jax_roles`         -- ``:jax-issue:`` and ``:doi:`` roles
* :mod:`.config_options`    -- the ``list_config_options`` directive
* :mod:`.tagged_block`      -- the ``tagged-block`` directive (source_include)

What the offline, scoped build of upstream's docs needs, English or Korean:

* :mod:`.strict_include`    -- a missing ``include`` is a build error, not a warning
* :mod:`.gettext_filters`   -- stored notebook outputs never become messages
* :mod:`.notebook_defaults` -- notebook code without a named lexer is highlighted as Python
* :mod:`.api_links`         -- in the narrative scope, references to API pages link to
  upstream's English docs
* :mod:`.missing_deps`      -- a page whose included file is missing is not read again
  on every build
* :mod:`.offline_math`      -- MathJax from a Python package, not a CDN
* :mod:`.offline_mermaid`   -- mermaid from the npm registry, not a CDN
* :mod:`.build_progress`    -- a quiet build's progress, in a file for ``jaxko site build``
"""
