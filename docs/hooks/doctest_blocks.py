"""Read the package's docstrings as the site's Markdown: doctests as code, roles as names.

The docstrings are plain text in the Sphinx manner, with doctests (``>>>`` lines and the output
under them) that pytest runs.  Read as Markdown, an output such as ``['stand', 'reroll']`` looks
like a reference link, a session loses its line breaks, and a role such as
``:func:`~.state.legal` `` shows its markup.  This griffe extension (loaded by mkdocs.yml)
fences every doctest session as a ``pycon`` code block and writes each role as the code name it
points at, before the docstring is rendered.  The docstrings themselves stay as they are.
"""

from __future__ import annotations

import re
from typing import Any

from griffe import Extension, Object


def fence_doctests(text: str) -> str:
    """Every run of lines starting at a ``>>>`` line, up to the next blank line, in a fence.

    >>> fence_doctests("Intro.\\n\\n>>> 1 + 1\\n2\\n\\nAfter.").splitlines()
    ['Intro.', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'After.']
    """
    out: list[str] = []
    inside = False
    indent = ""
    for line in text.splitlines():
        stripped = line.lstrip()
        if not inside and stripped.startswith(">>>"):
            inside = True
            indent = line[: len(line) - len(stripped)]
            out.append(f"{indent}```pycon")
        elif inside and not stripped:
            out.append(f"{indent}```")
            inside = False
        out.append(line)
    if inside:
        out.append(f"{indent}```")
    return "\n".join(out)


_ROLE = re.compile(r":(?:func|class|meth|mod|data|attr|exc|obj|const):`(~?)([^`]+)`")


def plain_roles(text: str) -> str:
    """``:func:`~.a.b` `` as ``b`` in code; without the tilde the whole dotted name.

    >>> plain_roles("see :func:`~.state.apply` and :class:`.rules.Rules`")
    'see `apply` and `rules.Rules`'
    """

    def name(m: re.Match[str]) -> str:
        target = m.group(2).lstrip(".")
        return f"`{target.rsplit('.', 1)[-1] if m.group(1) else target}`"

    return _ROLE.sub(name, text)


class DoctestBlocks(Extension):
    """The griffe extension: each object's docstring through both rewrites above."""

    def on_object(self, *, obj: Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = plain_roles(fence_doctests(obj.docstring.value))
