"""The pages as the server sends them (``web/pages/release.py``): one style sheet and one script a
page, named by their content, cached for a year and sent precompressed; the page itself
revalidated at every visit, with its start-up answers inline; the generated files equal to
what the sources make (a changed source is a new name, the old one gone); the critical style
chosen from the page's own markup; the service worker told this release's files."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import brotli
import pytest
from fastapi.testclient import TestClient

from shipcaptaincrew.web import Settings, create_app
from shipcaptaincrew.web.pages import routes as pages
from shipcaptaincrew.web.pages.bundle import bundle
from shipcaptaincrew.web.pages.critical import critical, markup
from shipcaptaincrew.web.pages.release import (
    PRELOAD_ID,
    PageSpec,
    Release,
    ReleaseError,
    read_sources,
)
from shipcaptaincrew.web.pages.routes import PAGES, START_DATA, STATIC

#: A path of every page (a table's code where it has one).
PATHS = {spec.name: spec.routes[0] for spec in PAGES}


def open_app(url: str) -> TestClient:
    return TestClient(
        create_app(Settings(db_url=url, rooms_per_hour=0, fixed_server_seed="5eed" * 16))
    )


@pytest.fixture
def web(sqlite_url: str) -> Iterator[TestClient]:
    with open_app(sqlite_url) as client:
        yield client


def path_of(client: TestClient, name: str) -> str:
    if "{code}" not in PATHS[name]:
        return PATHS[name]
    code = client.post("/api/rooms", json={"name": "Anna"}).json()["code"]
    return PATHS[name].format(code=code)


def linked(html: str) -> tuple[list[str], list[str]]:
    """The style sheets and the module scripts a page loads."""
    return (
        re.findall(r'<link rel="stylesheet" href="([^"]+)">', html),
        re.findall(r'<script type="module" src="([^"]+)"></script>', html),
    )


def sha(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def sources() -> dict[str, str]:
    return read_sources(STATIC)


@pytest.mark.parametrize("name", PATHS)
def test_a_page_loads_one_style_sheet_and_one_script_both_preloaded(
    web: TestClient, name: str
) -> None:
    r = web.get(path_of(web, name))
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    sheets, scripts = linked(r.text)
    assert len(sheets) == 1 and len(scripts) == 1, (sheets, scripts)
    assert all(u.startswith("/assets/") for u in sheets + scripts)
    assert f"<{sheets[0]}>; rel=preload; as=style" in r.headers["link"]
    assert f"<{scripts[0]}>; rel=modulepreload" in r.headers["link"]
    # Nothing else is fetched before the page runs: no other script, no @import.
    assert not re.search(
        r"<script[^>]*\bsrc=", r.text.replace(f'<script type="module" src="{scripts[0]}">', "")
    )
    # What is inline runs: each inline script and style is allowed by its hash, and only those.
    policy = r.headers["content-security-policy"]
    inline_scripts = re.findall(r"<script>(.*?)</script>", r.text, re.S)
    inline_styles = re.findall(r"<style>(.*?)</style>", r.text, re.S)
    assert inline_scripts and len(inline_styles) == 1
    script_src = policy.split("script-src ")[1].split(";")[0].split()
    style_src = policy.split("style-src ")[1].split(";")[0].split()
    assert sorted(script_src) == sorted(["'self'", *map(sha, inline_scripts)])
    assert sorted(style_src) == sorted(["'self'", *map(sha, inline_styles)])
    assert "@import" not in inline_styles[0]


def test_generated_files_are_immutable_precompressed_and_made_from_the_sources(
    web: TestClient,
) -> None:
    html = web.get("/r/ABCDEF").text
    (css,), (js,) = linked(html)
    expected = {
        # The table's sheets joined in the order its head links them.
        css: "\n".join((STATIC / f).read_text() for f in ("style.css", "compact.css")).encode(),
        js: bundle("room.js", sources()).text.encode(),
    }
    for url, made in expected.items():
        plain = web.get(url, headers={"accept-encoding": "identity"})
        assert plain.status_code == 200 and "content-encoding" not in plain.headers
        assert plain.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert plain.headers["vary"] == "Accept-Encoding"
        assert plain.content.startswith(made)  # the bundle adds only its source map's name
        assert plain.content[len(made) :] in (
            b"",
            f"//# sourceMappingURL={url.rsplit('/', 1)[1]}.map\n".encode(),
        )
        # Its name is its content's: a change of a source can never be served under it.
        assert hashlib.sha256(made).hexdigest()[:12] in url
        for coding, unpack in (("br", brotli.decompress), ("gzip", gzip.decompress)):
            with web.stream("GET", url, headers={"accept-encoding": coding}) as packed:
                assert packed.headers["content-encoding"] == coding
                raw = b"".join(packed.iter_raw())
            assert len(raw) < len(plain.content) / 3
            assert unpack(raw) == plain.content
    # br preferred to gzip; a coding refused with q=0 is not used.
    assert web.get(js, headers={"accept-encoding": "gzip, br"}).headers["content-encoding"] == "br"
    assert (
        web.get(js, headers={"accept-encoding": "br;q=0, gzip"}).headers["content-encoding"]
        == "gzip"
    )
    assert web.get("/assets/room.000000000000.js").status_code == 404


def test_a_changed_source_is_a_new_name_and_the_old_name_is_gone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    static = tmp_path / "static"
    shutil.copytree(STATIC, static)
    monkeypatch.setattr(pages, "STATIC", static)
    with open_app(f"sqlite:///{tmp_path / 'a.sqlite3'}") as before:
        (old_css,), (old_js,) = linked(before.get("/r/ABCDEF").text)
        old_sw = before.get("/sw.js").text
        assert before.get(old_js).status_code == 200
    dice = static / "js" / "dice.js"
    dice.write_text(
        dice.read_text(encoding="utf-8") + "\nexport const CHANGED = 'a new release';\n",
        encoding="utf-8",
    )
    with open_app(f"sqlite:///{tmp_path / 'b.sqlite3'}") as after:  # a restart
        (new_css,), (new_js,) = linked(after.get("/r/ABCDEF").text)
        assert new_css == old_css and new_js != old_js
        assert after.get(old_js).status_code == 404
        assert "a new release" in after.get(new_js).text
        # The home page's script imports dice.js too; the history page's does not.
        assert after.get("/").text != before.get("/").text
        new_sw = after.get("/sw.js").text
        release = re.compile(r'const RELEASE = "(\w+)";')
        assert release.search(new_sw)[1] != release.search(old_sw)[1]  # type: ignore[index]
        assert new_js in new_sw and old_js not in new_sw


def test_a_page_is_revalidated_at_every_visit(web: TestClient) -> None:
    r = web.get("/")
    assert r.headers["cache-control"] == "no-cache"
    etag = r.headers["etag"]
    again = web.get("/", headers={"if-none-match": etag})
    assert again.status_code == 304 and again.content == b""
    other = web.get("/", headers={"if-none-match": etag, "accept-language": "de-DE"})
    assert other.status_code == 200 and other.headers["etag"] != etag


def preloaded(html: str) -> dict[str, Any]:
    found = re.search(
        rf'<script type="application/json" id="{PRELOAD_ID}">(.*?)</script>', html, re.S
    )
    assert found, "no start-up data in the page"
    data: dict[str, Any] = json.loads(found[1])
    return data


def test_the_start_up_answers_are_the_apis_answers_in_the_pages_language(web: TestClient) -> None:
    home = preloaded(web.get("/", headers={"accept-language": "de-DE,de;q=0.9,en;q=0.5"}).text)
    assert set(home) == {"/api/i18n/de", "/api/options?lang=de"}
    for url, answer in home.items():
        assert web.get(url).json() == answer
    assert home["/api/i18n/de"]["New table"] == "Neuer Tisch"
    # ?lang= wins (as the page's own choice does); a Norwegian phone reads bokmål.
    assert set(preloaded(web.get("/?lang=nb", headers={"accept-language": "de"}).text)) == {
        "/api/i18n/nb",
        "/api/options?lang=nb",
    }
    assert "/api/i18n/nb" in preloaded(web.get("/", headers={"accept-language": "no-NO"}).text)
    assert "/api/i18n/en" in preloaded(web.get("/", headers={"accept-language": "fr-FR"}).text)
    # A table's page brings the phone's language only, never the table's (each phone in its
    # own: see test_pages_lang.py).
    code = web.post("/api/rooms", json={"name": "Kari", "lang": "nb"}).json()["code"]
    table = preloaded(web.get(f"/r/{code}", headers={"accept-language": "en-GB"}).text)
    assert set(table) == {"/api/i18n/en", "/api/options?lang=en"}
    assert set(preloaded(web.get("/r/NOSUCH", headers={"accept-language": "en-GB"}).text)) == {
        "/api/i18n/en",
        "/api/options?lang=en",
    }
    assert set(preloaded(web.get("/history", headers={"accept-language": "de"}).text)) == {
        "/api/i18n/de"
    }


def test_start_up_data_cannot_end_its_element(tmp_path: Path) -> None:
    """A text in the data that looks like the end of the element stays data."""
    sly = "</script><script>alert(1)</script>\u2028"
    spec = PageSpec("home", "index.html", ("/",), data=("sly",))
    made = Release(STATIC, [spec], {"sly": lambda lang: ("/api/sly", {"name": sly, "lang": lang})})
    html = made.html("home", ["de"]).raw.decode()
    assert "alert(1)</script>" not in html
    assert preloaded(html) == {"/api/sly": {"name": sly, "lang": "de"}}


def test_a_page_the_release_cannot_place_is_refused(tmp_path: Path) -> None:
    static = tmp_path / "static"
    shutil.copytree(STATIC, static)
    page = static / "history.html"
    html = page.read_text(encoding="utf-8")
    page.write_text(
        html.replace(
            "</head>", '<script type="module" src="/static/js/stats.js"></script>\n</head>'
        ),
        encoding="utf-8",
    )
    with pytest.raises(ReleaseError, match=r"history.html: .*one <script type=module>"):
        Release(static, PAGES, START_DATA)
    page.write_text(html.replace("history.js", "nothing.js"), encoding="utf-8")
    with pytest.raises(ReleaseError, match=r"history.html: .*nothing.js, which does not exist"):
        Release(static, PAGES, START_DATA)


def test_the_service_worker_is_told_this_releases_files(web: TestClient) -> None:
    r = web.get("/sw.js")
    assert r.headers["cache-control"] == "no-cache" and r.headers["service-worker-allowed"] == "/"
    consts = dict(re.findall(r"^const (RELEASE|PRECACHE|PAGES) = (.+);$", r.text, re.M))
    assert json.loads(consts["RELEASE"]) == web.app.state.release.id
    precache = json.loads(consts["PRECACHE"])
    offline = [spec for spec in PAGES if spec.offline]
    assert {"/", "/r/{code}"} <= {spec.routes[0] for spec in offline} <= set(precache)
    for url in precache:  # each can be fetched as it is listed
        assert web.get(url).status_code == 200, url
    for spec in offline:
        sheets, scripts = linked(web.get(path_of(web, spec.name)).text)
        assert set(sheets + scripts) <= set(precache)
    # Every page's path is known to it as that page, and nothing else is.
    patterns = [(re.compile(p), key) for p, key in json.loads(consts["PAGES"])]
    for spec in PAGES:
        path = path_of(web, spec.name)
        assert [key for p, key in patterns if p.match(path)] == [spec.routes[0]]
    assert not any(p.match("/api/options") or p.match("/r/ABC/x") for p, _ in patterns)


def test_the_critical_style_is_what_the_shell_can_use() -> None:
    css = (
        ":root { --x: 1px; }\n.panel { padding: 1rem; }\n.felt { color: green; }\n"
        "header.top nav a { color: white; }\n@media (min-width: 9rem) { .panel { margin: 0; } .felt { margin: 0; } }\n"
        "@keyframes spin { to { transform: rotate(1turn); } }\nbutton:not(.ghost):hover { color: red; }\n"
        "[hidden] { display: none !important; }\n.a, .felt { color: blue; }\n"
    )
    page = markup(
        '<html><body><header class="top"></header><main><div class="panel" hidden><button>x</button></div></main></body></html>'
    )
    shell = critical(css, page)
    assert shell.split("\n") == [
        ":root{--x: 1px;}",
        ".panel{padding: 1rem;}",
        "@media (min-width: 9rem){.panel{margin: 0;}}",
        "button:not(.ghost):hover{color: red;}",
        "[hidden]{display: none !important;}",
    ]
