"""``jaxko check``: glossary, particle, markup, safety, code and consistency rules.

catalog -> messages -> findings -> reporter; see :mod:`jaxko.check.runner`.
"""

from jaxko.check.runner import Options, Result, check_text, load_rules_modules, run  # noqa: F401
