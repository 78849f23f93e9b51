"""Korean strings of sphinx-book-theme where the theme's own catalog reads badly.

The theme translates its messages through its own catalog (``booktheme``, registered
by the theme from ``sphinx_book_theme/theme/sphinx_book_theme/static/locales``);
Sphinx looks up ``locale_dirs`` only for its own ``sphinx`` catalog, so a project
``.po`` cannot override it. The footer is ``{{ translate('By') }} {{ author }}``
(``components/author.html``): "By The JAX authors" in English. The theme's Korean
catalog renders "By" as "으로", a particle that can only follow a noun, and the
footer read "으로 The JAX authors".

The translation stays a prefix of the author's name and the name stays English, so
no particle can attach to it: the footer reads "© The JAX authors". Once the theme has registered its catalog (``builder-inited``),
its translator is wrapped by one that answers the messages below first and asks the
theme's catalog for everything else; the template's ``translate`` and the theme's
Python code both look the translator up on every call.

``jaxko_theme_messages`` holds the overrides in force: by default ``MESSAGES`` for the
build's language, a dict in conf.py to replace them, ``-D jaxko_theme_messages=0`` to
turn them off (the tests build once that way to show the theme's text). It is an
"html" config value, so a change of the overrides writes every page again in an
incremental build (the footer is on all of them).
"""

from __future__ import annotations

import gettext
import os

from sphinx import locale

CATALOG = "booktheme"        # sphinx_book_theme.MESSAGE_CATALOG_NAME
NAMESPACE = "general"

# language -> {msgid: msgstr}; msgids exactly as the theme writes them.
MESSAGES: dict[str, dict[str, str]] = {
    "ko": {
        "By": "©",           # footer: "© The JAX authors" (the catalog: "으로")
        "Fullscreen mode": "전체 화면 모드",   # header button (the catalog: "전체 화면으로보기")
    },
}


class OverrideTranslations(gettext.NullTranslations):
    """Our msgstr for the overridden messages; the wrapped catalog for the rest."""

    def __init__(self, messages: dict[str, str], fallback: gettext.NullTranslations):
        super().__init__()
        self.messages = dict(messages)
        self.wrapped = fallback
        self.add_fallback(fallback)

    def gettext(self, message: str) -> str:
        if message in self.messages:
            return self.messages[message]
        return super().gettext(message)


def install(messages: dict[str, str]) -> None:
    """Wrap the theme's translator with ``messages`` (none: unwrap it). Idempotent."""
    current = locale.translators.get((NAMESPACE, CATALOG))
    if isinstance(current, OverrideTranslations):  # an earlier build in this process
        current = current.wrapped
        locale.translators[NAMESPACE, CATALOG] = current
    if current is None or not messages:
        return  # another theme, or nothing to override
    locale.translators[NAMESPACE, CATALOG] = OverrideTranslations(messages, current)


def _default_messages(config) -> dict[str, str]:
    return dict(MESSAGES.get(config.language or "", {}))


def _builder_inited(app) -> None:
    # The HTML builder loads the theme (and registers its catalog) before this event.
    value = app.config.jaxko_theme_messages
    if value is True:
        value = _default_messages(app.config)
    install(value or {})


def _template_cache(app) -> None:
    """Compiled templates kept between builds (``jaxko_template_cache``, a folder in the
    build's state, jaxko.site.state): Jinja compiles the theme's templates anew in every
    Sphinx process otherwise. Jinja keys each one by its name and checks the checksum of
    its source, so an edited template is compiled again."""
    folder = app.config.jaxko_template_cache
    environment = getattr(getattr(app.builder, "templates", None), "environment", None)
    if folder and environment is not None:
        from jinja2 import FileSystemBytecodeCache

        os.makedirs(folder, exist_ok=True)
        environment.bytecode_cache = FileSystemBytecodeCache(folder)


def setup(app):
    app.add_config_value("jaxko_theme_messages", _default_messages, "html",
                         types=[dict, bool])
    # "" compiles every template in every build (a plain sphinx-build).
    app.add_config_value("jaxko_template_cache", "", "", types=[str])
    app.connect("builder-inited", _builder_inited)
    app.connect("builder-inited", _template_cache)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
