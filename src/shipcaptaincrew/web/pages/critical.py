"""The critical part of a style sheet: the rules that can style what a page's HTML shows
before its script has drawn anything (the shell).

A page inlines these rules and loads the whole style sheet at the end of its body, where it no
longer holds up the first paint: the shell (the header's colour, the heading, on the home page
the forms) paints as soon as the HTML is in, styled, and the script, which waits for the whole
sheet, draws the rest with every rule in place.

The choice is made from the sheet and the page's own markup, never by hand, so it follows both
as they change: a rule is critical when one of its selectors names only tags, classes, ids and
attributes that the page's HTML has (``:not(...)`` and pseudo-classes aside).  It errs on the
side of taking a rule: a rule taken that turns out not to apply costs a few bytes; a rule
missed would only show the shell unstyled until the sheet arrives.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_PARENS = re.compile(r"\((?:[^()]|\([^()]*\))*\)")
_ATTR = re.compile(r"\[\s*([\w-]+)[^\]]*\]")
_CLASS = re.compile(r"\.([\w-]+)")
_ID = re.compile(r"#([\w-]+)")
_TAG = re.compile(r"(?:^|[\s>+~])([a-zA-Z][\w-]*)")


@dataclass
class Markup:
    """What a page's HTML has: its tags, classes, ids and attribute names."""

    tags: set[str] = field(default_factory=lambda: {"html", "body"})
    classes: set[str] = field(default_factory=set)
    ids: set[str] = field(default_factory=set)
    attrs: set[str] = field(default_factory=lambda: {"data-theme", "lang"})  # set on <html>


class _Reader(HTMLParser):
    def __init__(self, markup: Markup) -> None:
        super().__init__()
        self.markup = markup

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        m = self.markup
        m.tags.add(tag)
        for name, value in attrs:
            m.attrs.add(name)
            if name == "class" and value:
                m.classes.update(value.split())
            elif name == "id" and value:
                m.ids.add(value)


def markup(html: str) -> Markup:
    """The tags, classes, ids and attributes of a page (what its shell can be made of)."""
    found = Markup()
    reader = _Reader(found)
    reader.feed(html)
    reader.close()
    return found


def _may_match(selector: str, page: Markup) -> bool:
    # What a selector needs to be there; what :not(...), :is(...) and the like take is left out.
    bare = _PARENS.sub("", selector)
    attrs = set(_ATTR.findall(bare))
    bare = re.sub(r"::?[\w-]+", "", _ATTR.sub(" ", bare))
    classes, ids = set(_CLASS.findall(bare)), set(_ID.findall(bare))
    tags = {t.lower() for t in _TAG.findall(_ID.sub("", _CLASS.sub("", bare)))}
    return tags <= page.tags and classes <= page.classes and ids <= page.ids and attrs <= page.attrs


def _blocks(css: str) -> list[tuple[str, str]]:
    """The top-level blocks of a sheet: (prelude, body) pairs, braces balanced."""
    out: list[tuple[str, str]] = []
    depth, start, prelude = 0, 0, ""
    for i, ch in enumerate(css):
        if ch == "{":
            if depth == 0:
                prelude, start = css[start:i].strip(), i + 1
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                out.append((prelude, css[start:i]))
                start = i + 1
    return out


def critical(css: str, page: Markup) -> str:
    """The rules of ``css`` that may style the page ``page`` (see the module docstring)."""
    out: list[str] = []
    for prelude, body in _blocks(_COMMENT.sub("", css)):
        if prelude.startswith("@media") or prelude.startswith("@supports"):
            inner = critical(body, page)
            if inner:
                out.append(f"{prelude}{{{inner}}}")
        elif prelude.startswith("@"):
            continue  # @keyframes and the like: the motion comes with the whole sheet
        elif any(_may_match(s, page) for s in prelude.split(",")):
            out.append(f"{prelude}{{{' '.join(body.split())}}}")
    return "\n".join(out)
