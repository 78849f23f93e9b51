"""``.. list_config_options::``: every ``jax.config`` option, read from the installed JAX.

The list is generated as reStructuredText and parsed in place, so each option's help
text is an ordinary translatable paragraph.
"""

from __future__ import annotations

import textwrap

from docutils import nodes
from sphinx.util.docutils import SphinxDirective


def _options() -> list[tuple[str, str, str, str]]:
    """(name, type, default, help) for each registered option, sorted by name."""
    from jax._src import config as jax_config  # imported lazily: only this page needs JAX

    rows = []
    for name, holder in sorted(jax_config.config._value_holders.items()):
        opt_type, _args, kwargs = jax_config.config.meta.get(name, (None, (), {}))
        help_text = " ".join(str(kwargs.get("help", "") or "").split())
        type_name = getattr(opt_type, "__name__", str(opt_type or ""))
        try:
            default = repr(holder.value)
        except Exception:  # an option whose value cannot be read outside a trace
            default = "(dynamic)"
        rows.append((name, type_name, default, help_text))
    return rows


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("`", "\\`").replace("*", "\\*").replace("|", "\\|")


class ListConfigOptions(SphinxDirective):
    """Render the JAX configuration options as a definition list."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        lines = []
        for name, type_name, default, help_text in _options():
            lines.append(f"``{name}``")
            detail = f"*{_escape(type_name)}*, default ``{default}``" if type_name else f"default ``{default}``"
            lines.append(textwrap.indent(detail, "   "))
            if help_text:
                lines.append("")
                lines.append(textwrap.indent(_escape(help_text), "   "))
            lines.append("")
        parsed = self.parse_text_to_nodes("\n".join(lines))
        # Attribute the generated text to this page, so its messages are located at the
        # directive (config_options.rst:66), not at "<generated text>".
        source = str(self.env.doc2path(self.env.docname))
        for top in parsed:
            for node in top.findall(nodes.Element):
                node.source, node.line = source, self.lineno
        return parsed


def setup(app):
    app.add_directive("list_config_options", ListConfigOptions)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
