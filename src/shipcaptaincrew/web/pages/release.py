"""What the server sends for the pages, made once from the files under ``static/`` when the
app starts: the release.

A phone at a pub (400 ms a round trip, 60 kB/s) should open a table in one round trip for the
page and one for what it needs, so for each page the release holds

* **one style sheet and one script**: the page's style sheets joined, and its module graph
  joined by :mod:`.bundle`, each named by its content (``room.1a2b3c4d5e6f.js``) so that it can
  be cached for a year, and each compressed once (gzip and brotli) instead of on every request;
* **the page itself**: the HTML as written, its head made to point at those files, the small
  script that picks light or dark put inline (it must run before the first paint), and the
  answers the page would otherwise fetch one after another when it starts (its strings, the
  option table) inlined as JSON, in the language the browser asks for;
* **the service worker's list**: a release id that changes with any of the above, and the files
  to keep, so that the next visit opens from the phone's own cache and a new release replaces
  every cached file on the visit after it comes out (``static/sw.js``).

The sources stay plain files: a contributor edits ``static/js/*.js``, ``style.css`` or a page
and restarts the server.  Every generated name carries the hash of its bytes, so a stale file
can never be served under a new name (the tests build a release from the sources and compare).
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import brotli

from ...facts import DEFAULT_LANG, LANGUAGE_NAMES, LANGUAGES
from . import critical
from .bundle import BundleError, bundle, source_map
from .comments import without_comment_lines

#: Where the generated files are served (named by content: cached for a year, never changed).
ASSETS = "/assets/"
#: An asset's caching: a new release has new names, so a name's bytes never change.
IMMUTABLE = "public, max-age=31536000, immutable"
#: The content security policy; a page adds the hashes of its inline script and style.
POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "frame-ancestors": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
}
#: The id of the element holding a page's start-up answers (read by static/js/common.js).
PRELOAD_ID = "scc-preload"

#: A page's start-up data: a name -> for a language, the URL the page would fetch and its answer.
StartData = Mapping[str, Callable[[str], tuple[str, Any]]]


class ReleaseError(ValueError):
    """A page, style sheet or module the release cannot build: the message says which and why."""


def content_security_policy(scripts: Iterable[str] = (), styles: Iterable[str] = ()) -> str:
    """The policy, allowing the inline scripts and styles with these texts (by SHA-256)."""

    def digest(text: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"

    policy = dict(POLICY)
    policy["script-src"] += "".join(" " + digest(s) for s in scripts)
    policy["style-src"] += "".join(" " + digest(s) for s in styles)
    return "; ".join(f"{k} {v}" for k, v in policy.items())


def facts_module() -> str:
    """The core's facts the pages need (languages, their names, the default) as a module."""
    return (
        f"export const LANGS = {json.dumps(list(LANGUAGES))};\n"
        f"export const LANG_NAMES = {json.dumps(LANGUAGE_NAMES, ensure_ascii=False)};\n"
        f"export const DEFAULT_LANG = {json.dumps(DEFAULT_LANG)};\n"
    )


def read_sources(static: Path) -> dict[str, str]:
    """The pages' modules as the release sends them: each file under ``js/`` without its
    comment lines, and the generated facts module."""
    found = {
        p.name: without_comment_lines(p.read_text(encoding="utf-8"))
        for p in (static / "js").glob("*.js")
    }
    found["facts.js"] = facts_module()
    return found


def _accepts(header: str, coding: str) -> bool:
    for part in header.split(","):
        token, _, params = part.strip().partition(";")
        if token.strip().lower() == coding:
            q = re.search(r"q\s*=\s*([0-9.]+)", params)
            return not q or float(q[1]) > 0
    return False


@dataclass(frozen=True)
class Body:
    """One response body and its compressed forms, made once."""

    raw: bytes
    media_type: str
    br: bytes = field(repr=False)
    gz: bytes = field(repr=False)
    etag: str

    @classmethod
    def of(cls, raw: bytes, media_type: str) -> Body:
        digest = hashlib.sha256(raw).hexdigest()[:20]
        # mtime=0: the same bytes give the same gzip body in every process.
        gz = gzip.compress(raw, 9, mtime=0)
        return cls(raw, media_type, brotli.compress(raw, quality=11), gz, f'"{digest}"')

    def encoded(self, accept_encoding: str) -> tuple[bytes, str | None]:
        """The smallest body this client accepts, and its ``Content-Encoding``."""
        if _accepts(accept_encoding, "br"):
            return self.br, "br"
        if _accepts(accept_encoding, "gzip"):
            return self.gz, "gzip"
        return self.raw, None


@dataclass(frozen=True)
class PageSpec:
    """A page of the app: its HTML file, its routes, the start-up data it gets inline,
    and whether the service worker keeps it from the first visit (the pages a phone opens
    offline: the installed app's start, the table and its screen)."""

    name: str
    file: str
    routes: tuple[str, ...]
    data: tuple[str, ...] = ()
    offline: bool = False


@dataclass(frozen=True)
class Page:
    """A page as the release serves it: the HTML around its start-up data, and its headers."""

    spec: PageSpec
    before: str  # the HTML up to where the start-up data goes
    after: str
    policy: str  # Content-Security-Policy (with the inline script's and style's hashes)
    assets: tuple[str, ...]  # the style sheet's and the script's URLs
    files: tuple[str, ...]  # what else its head links to (manifest, icons)
    preload: str  # the Link header: both, fetched before the HTML is read


_STYLESHEET = re.compile(r'[ \t]*<link rel="stylesheet" href="/static/([\w./-]+\.css)">\n?')
_CLASSIC = re.compile(r'[ \t]*<script src="/static/js/([\w.-]+\.js)"></script>\n?')
_ENTRY = re.compile(r'[ \t]*<script type="module" src="/static/js/([\w.-]+\.js)"></script>\n?')
_LINKED = re.compile(r'<link rel="(?:manifest|icon|apple-touch-icon)" href="(/[^"]+)"')
_ANY_SCRIPT = re.compile(r"<script\b", re.I)
_CSS_URL = re.compile(r"""url\(\s*["']?(?!data:|/)""")


def _name(stem: str, ext: str, raw: bytes) -> str:
    return f"{stem}.{hashlib.sha256(raw).hexdigest()[:12]}.{ext}"


def _inline_json(text: str) -> str:
    """JSON inside an HTML element: no "<" in it, so no text in the data can end the element."""
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


class Release:
    """Every generated file and page of one set of sources (see the module docstring)."""

    def __init__(self, static: Path, pages: Sequence[PageSpec], data: StartData) -> None:
        self.static = static
        #: Generated files by name (served under ASSETS).
        self.assets: dict[str, Body] = {}
        self.sources = read_sources(static)
        self.pages: dict[str, Page] = {}
        for spec in pages:
            try:
                self.pages[spec.name] = self._page(spec)
            except (BundleError, ReleaseError, OSError) as e:
                raise ReleaseError(f"{spec.file}: {e}") from None
        # The start-up data in every language, made now: a new translation is a new release
        # too (a phone must not keep the old words).  Each: (the URL it answers, its JSON).
        self.data: dict[tuple[str, str], tuple[str, str]] = {}
        for name in sorted({d for spec in pages for d in spec.data}):
            for lang in LANGUAGES:
                url, value = data[name](lang)
                self.data[name, lang] = (
                    url,
                    json.dumps(value, ensure_ascii=False, separators=(",", ":")),
                )
        digest = hashlib.sha256()
        for asset in sorted(self.assets):
            digest.update(f"{asset} {self.assets[asset].etag}\n".encode())
        for page in self.pages.values():
            digest.update((page.before + page.after).encode())
        for answer in sorted(self.data):
            digest.update("".join(self.data[answer]).encode())
        #: Changes whenever anything a phone may keep changes (the service worker's cache name).
        self.id = digest.hexdigest()[:16]
        self._html: dict[tuple[str, tuple[str, ...]], Body] = {}
        self._lock = threading.Lock()

    def _add(self, name: str, raw: bytes, media_type: str) -> str:
        self.assets[name] = Body.of(raw, media_type)
        return ASSETS + name

    def _stylesheet(self, files: tuple[str, ...]) -> tuple[str, str]:
        """The one style sheet of these files: its URL, and its text."""
        texts = [(self.static / f).read_text(encoding="utf-8") for f in files]
        for f, text in zip(files, texts):
            if _CSS_URL.search(text):
                raise ReleaseError(f"{f}: a relative url() (write /static/...)")
        text = "\n".join(texts)
        stem = files[0].rsplit("/", 1)[-1].removesuffix(".css")
        name = _name(stem, "css", text.encode())
        if name not in self.assets:
            self._add(name, text.encode(), "text/css; charset=utf-8")
        return ASSETS + name, text

    def _script(self, entry: str) -> str:
        b = bundle(entry, self.sources)
        name = _name(entry.removesuffix(".js"), "js", b.text.encode())
        if name not in self.assets:
            self._add(
                f"{name}.map", source_map(b, name, "/static/js/{name}").encode(), "application/json"
            )
            self._add(
                name,
                (b.text + f"//# sourceMappingURL={name}.map\n").encode(),
                "text/javascript; charset=utf-8",
            )
        return ASSETS + name

    def _page(self, spec: PageSpec) -> Page:
        html = (self.static / spec.file).read_text(encoding="utf-8")
        head, sep, body = html.partition("</head>")
        body, sep2, end = body.rpartition("</body>")
        if not (sep and sep2):
            raise ReleaseError("a page needs a </head> and a </body>")
        sheets = tuple(_STYLESHEET.findall(head))
        classic = _CLASSIC.findall(head)
        entries = _ENTRY.findall(head)
        if len(entries) != 1 or not sheets:
            raise ReleaseError(
                "a page needs one <script type=module> and a style sheet in its head"
            )
        if len(_ANY_SCRIPT.findall(html)) != len(classic) + 1:
            raise ReleaseError("a <script> the release cannot place (a page has one module entry)")
        css, css_text = self._stylesheet(sheets)
        js = self._script(entries[0])
        shell = critical.critical(css_text, critical.markup(html))
        inline = [self.sources[name] for name in classic]
        # The shell's rules, the inline scripts and the entry where the first sheet was; the
        # whole sheet at the end of the body, where it no longer holds up the first paint.
        at = _STYLESHEET.search(head)
        assert at is not None
        made = (
            "".join(f"<script>{s}</script>\n" for s in inline)
            + f"<style>{shell}</style>\n"
            + f'<script type="module" src="{js}"></script>\n'
        )
        rest = _ENTRY.sub("", _CLASSIC.sub("", _STYLESHEET.sub("", head[at.start() :])))
        head = head[: at.start()] + made + rest
        return Page(
            spec,
            head + "</head>" + body,
            f'<link rel="stylesheet" href="{css}">\n</body>' + end,
            content_security_policy(inline, [shell]),
            (css, js),
            tuple(_LINKED.findall(head)),
            f"<{css}>; rel=preload; as=style, <{js}>; rel=modulepreload",
        )

    def made(self, name: str, langs: Sequence[str]) -> Body | None:
        """Page ``name`` in these languages if it was made already (see :meth:`html`)."""
        return self._html.get(self._key(name, langs))

    @staticmethod
    def _key(name: str, langs: Sequence[str]) -> tuple[str, tuple[str, ...]]:
        return (name, tuple(dict.fromkeys(lang for lang in langs if lang in LANGUAGES)))

    def html(self, name: str, langs: Sequence[str]) -> Body:
        """Page ``name`` with its start-up data in these languages (the first is the one the
        page will most likely choose; another saves a fetch if the page chooses it), made and
        compressed the first time it is asked for (a few milliseconds: off the event loop)."""
        key = self._key(name, langs)
        with self._lock:
            if key not in self._html:
                page = self.pages[name]
                answers = [self.data[d, lang] for d in page.spec.data for lang in key[1]]
                data = ""
                if answers:
                    text = (
                        "{" + ",".join(f"{json.dumps(url)}:{value}" for url, value in answers) + "}"
                    )
                    data = f'<script type="application/json" id="{PRELOAD_ID}">{_inline_json(text)}</script>\n'
                self._html[key] = Body.of(
                    (page.before + data + page.after).encode(), "text/html; charset=utf-8"
                )
            return self._html[key]

    def service_worker(self) -> str:
        """What the service worker (``static/sw.js``) needs to know of this release: its id,
        the files to keep from the first visit, and which page each URL is."""
        pages = []
        precache: list[str] = []
        for page in self.pages.values():
            for route in page.spec.routes:
                pattern = "^" + re.sub(r"\\\{\w+\\\}", "[^/]+", re.escape(route)) + "$"
                pages.append([pattern, route])
                if page.spec.offline:
                    precache += [route, *page.assets, *page.files]
        return (
            "// This release, as the server made it (shipcaptaincrew.web.pages.release).\n"
            f"const RELEASE = {json.dumps(self.id)};\n"
            f"const PRECACHE = {json.dumps(list(dict.fromkeys(precache)))};\n"
            f"const PAGES = {json.dumps(pages)};\n"
        )


_BUILT: dict[str, Release] = {}
_BUILDING = threading.Lock()


def load(static: Path, pages: Sequence[PageSpec], data: StartData) -> Release:
    """The release of the files under ``static`` now: built once per set of sources in a
    process (an app made again on the same files, as the tests do, shares it)."""
    digest = hashlib.sha256(repr(pages).encode())
    for path in sorted(static.rglob("*")):
        if path.suffix in (".js", ".css", ".html") and path.is_file():
            digest.update(str(path.relative_to(static)).encode() + b"\0" + path.read_bytes())
    key = f"{static}:{digest.hexdigest()}"
    with _BUILDING:
        if key not in _BUILT:
            _BUILT[key] = Release(static, pages, data)
        return _BUILT[key]
