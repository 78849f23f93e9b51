"""Korean strings of sphinx-book-theme where the theme's own catalog reads badly, and
of MyST-NB's cell toggles, which no catalog translates.

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

MyST-NB writes the summary of a hidden cell (``hide-input``, ``hide-output``,
``hide-cell``) from its options ``nb_code_prompt_show``/``nb_code_prompt_hide``,
"Show code cell {type}", with ``{type}`` an English word (source, output, outputs,
content) filled in by its post-transform; no message catalog is asked, so the Korean
site showed "Show code cell source". One Korean string per type cannot come from the
options (one pattern for every type), so a post-transform that runs after MyST-NB's
replaces each summary that is exactly MyST-NB's default English with the override
of the same text in ``jaxko_theme_messages`` (the same table and switch as the
theme's strings); a project's own prompts are left as they are.
"""

from __future__ import annotations

import gettext
import os

from docutils import nodes
from sphinx import locale
from sphinx.transforms.post_transforms import SphinxPostTransform

CATALOG = "booktheme"        # sphinx_book_theme.MESSAGE_CATALOG_NAME
NAMESPACE = "general"

# language -> {msgid: msgstr}; msgids exactly as the theme writes them.
MESSAGES: dict[str, dict[str, str]] = {
    "ko": {
        "By": "©",           # footer: "© The JAX authors" (the catalog: "으로")
        "Fullscreen mode": "전체 화면 모드",   # header button (the catalog: "전체 화면으로보기")
        # MyST-NB's toggles of hidden cells (no catalog; see CellToggles)
        "Show code cell source": "코드 보기",
        "Hide code cell source": "코드 숨기기",
        "Show code cell output": "출력 보기",
        "Hide code cell output": "출력 숨기기",
        "Show code cell outputs": "출력 보기",
        "Hide code cell outputs": "출력 숨기기",
        "Show code cell content": "코드 셀 보기",
        "Hide code cell content": "코드 셀 숨기기",
    },
}

# The summaries of MyST-NB's hidden-cell toggles, as its node attributes name them.
TOGGLE_ATTRIBUTES = ("prompt_show", "prompt_hide")


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


def messages_in_force(config) -> dict[str, str]:
    """The overrides ``jaxko_theme_messages`` puts in force (empty when turned off)."""
    value = config.jaxko_theme_messages
    if value is True:
        value = _default_messages(config)
    return dict(value or {})


def _builder_inited(app) -> None:
    # The HTML builder loads the theme (and registers its catalog) before this event.
    install(messages_in_force(app.config))


def _has_toggle(node) -> bool:
    return isinstance(node, nodes.Element) and "prompt_show" in node.attributes


class CellToggles(SphinxPostTransform):
    """Korean summaries on MyST-NB's hidden-cell toggles (see the module's docstring).

    MyST-NB's ``HideInputCells`` (priority 199) fills in ``{type}``; this one runs
    after it and only rewrites a summary that equals a key of the overrides."""

    default_priority = 200
    formats = ("html",)

    def run(self, **kwargs) -> None:
        messages = messages_in_force(self.config)
        if not messages:
            return
        for node in self.document.findall(_has_toggle):
            for attribute in TOGGLE_ATTRIBUTES:
                text = node.get(attribute)
                if isinstance(text, str) and text in messages:
                    node[attribute] = messages[text]


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
    app.add_post_transform(CellToggles)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
