"""Where an output comes from: one record, written the same way by every command, read back.

Why: a number in a paper must lead back to the run that made it.  Every file the commands
write -- ``scc simulate``, ``scc sweep``, ``scc export`` and ``scc crew export`` tables (and
a crew's download from the server), every figure -- carries one
:func:`record`: the command line, the rules (canonical text), the seed, the bots or policies,
the package version (from the git commit, :mod:`.version`) and the full commit, Python, NumPy
and the other libraries loaded, the platform and the time; then what the command adds (the
matches, the path a simulation took, the table exported...).  Running ``command`` again on the
same version gives the same rows (``tests/test_provenance.py`` does it).

Where each format keeps it (one convention, :func:`read` reads every one back):

========= ======================================================================
CSV       ``# key: value`` lines above the header, each value JSON
          (``pandas.read_csv(path, comment="#")`` skips them)
JSON      the top-level object ``"provenance"``, beside the rows
Parquet   the schema metadata key ``shipcaptaincrew``, a JSON text
PNG       the text chunk ``shipcaptaincrew``, a JSON text
SVG       the ``dc:description`` of the figure's metadata, a JSON text
PDF       the document information's ``Subject``, a JSON text
========= ======================================================================

(SVG and PDF allow only their own metadata fields, so the record takes the one meant for a
description.)  The record itself needs the standard library only; reading a Parquet file
back needs pyarrow (the ``sim`` extra).
"""

from __future__ import annotations

import json
import platform
import re
import shlex
import struct
import sys
import zlib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from .version import revision, version

__all__ = [
    "FIGURE_SUFFIXES",
    "LIBRARIES",
    "PROVENANCE_KEY",
    "TABLE_SUFFIXES",
    "command_line",
    "csv_header",
    "figure_metadata",
    "parquet_metadata",
    "read",
    "record",
    "written",
]

#: The key of the record in a Parquet file's schema metadata and in a PNG's text chunks.
PROVENANCE_KEY = "shipcaptaincrew"
#: The libraries whose version a record names, when the process has loaded them.
LIBRARIES = (
    "numpy",
    "pandas",
    "pyarrow",
    "matplotlib",
    "dask",
    "distributed",
    "gymnasium",
    "pettingzoo",
    "pyspiel",
)
#: The table files the commands write, and the figures.
TABLE_SUFFIXES = (".csv", ".json", ".parquet")
FIGURE_SUFFIXES = (".png", ".svg", ".pdf")
#: The record's own keys, first in every record; a command's keys follow.
_BASE = (
    "command",
    "rules",
    "seed",
    "bots",
    "version",
    "commit",
    "python",
    "libraries",
    "platform",
    "time",
)
#: Figure formats: the metadata field that holds the record.
_FIGURE_FIELD = {".png": PROVENANCE_KEY, ".svg": "Description", ".pdf": "Subject"}


def command_line(argv: list[str] | None = None) -> str:
    """The ``scc`` command line as typed (``sys.argv`` by default), quoted for a shell, so
    ``shlex.split`` gives the arguments back."""
    return shlex.join(["scc", *(sys.argv[1:] if argv is None else argv)])


def _library_versions() -> dict[str, str]:
    """The version of every library of :data:`LIBRARIES` the process has loaded."""
    out: dict[str, str] = {}
    for name in LIBRARIES:
        module = sys.modules.get(name)
        found = getattr(module, "__version__", None) if module is not None else None
        if name == "pyspiel" and module is not None:
            from importlib import metadata

            try:
                found = metadata.version("open_spiel")
            except metadata.PackageNotFoundError:
                found = None
        if isinstance(found, str):
            out[name] = found
    return out


def record(
    command: str | None,
    *,
    rules: object = None,
    seed: int | None = None,
    bots: list[str] | None = None,
    **more: Any,
) -> dict[str, Any]:
    """The provenance of an output: the keys every record has, then ``more`` (the command's).

    ``rules`` is written as its canonical text (a list of them for a sweep), ``bots`` as the
    names given (or the policies of an exact table).  ``libraries`` names the version of
    each of :data:`LIBRARIES` loaded now: call this when the output is written.

    >>> r = record("scc simulate --players tip,ev --matches 10 --seed 1", rules="classic",
    ...            seed=1, bots=["tip", "ev"], matches=10)
    >>> list(r)[:4], r["matches"], r["libraries"]["numpy"] == __import__("numpy").__version__
    (['command', 'rules', 'seed', 'bots'], 10, True)
    """
    rev = revision()
    text_rules: Any = rules if rules is None or isinstance(rules, list) else str(rules)
    if isinstance(rules, list):
        text_rules = [str(r) for r in rules]
    base: dict[str, Any] = {
        "command": command,
        "rules": text_rules,
        "seed": seed,
        "bots": None if bots is None else list(bots),
        "version": version(),
        "commit": None if rev is None else rev.commit,
        "python": platform.python_version(),
        "libraries": _library_versions(),
        "platform": platform.platform(),
        "time": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    clash = set(more) & set(_BASE)
    if clash:
        raise ValueError(f"a command's provenance cannot replace {sorted(clash)}")
    return {**base, **more}


# -- writing ------------------------------------------------------------------------------------


def written(prov: dict[str, Any]) -> dict[str, Any]:
    """``prov`` as it is written now: ``libraries`` names every library of :data:`LIBRARIES`
    loaded by the time the file is written (pandas for a table, matplotlib for a figure)."""
    return {**prov, "libraries": {**prov.get("libraries", {}), **_library_versions()}}


def csv_header(prov: dict[str, Any]) -> str:
    """The ``# key: value`` lines (JSON values) that open a CSV file."""
    return "".join(f"# {key}: {json.dumps(value)}\n" for key, value in written(prov).items())


def parquet_metadata(prov: dict[str, Any]) -> dict[bytes, bytes]:
    """The schema metadata entry of a Parquet file."""
    return {PROVENANCE_KEY.encode(): json.dumps(written(prov)).encode()}


def figure_metadata(prov: dict[str, Any], suffix: str) -> dict[str, str]:
    """matplotlib's ``savefig(metadata=...)`` for a figure of type ``suffix``: the record
    (ASCII JSON) in the format's field, and the program that made it."""
    field = _FIGURE_FIELD.get(suffix.lower())
    if field is None:
        raise ValueError(f"a figure is {', '.join(FIGURE_SUFFIXES)}, got {suffix!r}")
    meta = {field: json.dumps(written(prov), ensure_ascii=True)}
    program = f"shipcaptaincrew {prov.get('version', version())}"
    meta["Creator" if suffix.lower() in (".svg", ".pdf") else "Software"] = program
    return meta


# -- reading -------------------------------------------------------------------------------------


def read(path: str | Path) -> dict[str, Any]:
    """The provenance record of a file any command wrote (by its suffix); ``ValueError`` if
    the file holds none."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix == ".csv":
        return _from_csv(p)
    if suffix == ".json":
        doc = json.loads(p.read_text("utf-8"))
        if not isinstance(doc, dict) or not isinstance(doc.get("provenance"), dict):
            raise ValueError(f"{p}: no provenance object")
        prov: dict[str, Any] = doc["provenance"]
        return prov
    if suffix == ".parquet":
        import pyarrow.parquet as pq  # type: ignore[import-untyped]

        meta = pq.read_schema(p).metadata or {}
        return _loaded(meta.get(PROVENANCE_KEY.encode()), p)
    if suffix == ".png":
        return _loaded(_png_text(p.read_bytes()).get(PROVENANCE_KEY), p)
    if suffix == ".svg":
        return _loaded(_svg_description(p.read_bytes()), p)
    if suffix == ".pdf":
        return _loaded(_pdf_string(p.read_bytes(), "Subject"), p)
    raise ValueError(f"{p}: no provenance is written to {suffix or 'a file without a suffix'}")


def _loaded(text: str | bytes | None, p: Path) -> dict[str, Any]:
    if text is None:
        raise ValueError(f"{p}: no provenance in its metadata")
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError(f"{p}: the provenance is no object")
    return value


def _from_csv(p: Path) -> dict[str, Any]:
    prov: dict[str, Any] = {}
    with p.open(encoding="utf-8") as f:
        for line in f:
            if not line.startswith("# "):
                break
            key, sep, value = line[2:].rstrip("\n").partition(": ")
            if not sep:
                break
            prov[key] = json.loads(value)
    if not prov:
        raise ValueError(f"{p}: no '# key: value' provenance lines above the header")
    return prov


def _png_text(data: bytes) -> dict[str, str]:
    """The text chunks (tEXt, zTXt, iTXt) of a PNG file."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    out: dict[str, str] = {}
    at = 8
    while at + 8 <= len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        at += 12 + length
        if kind == b"tEXt":
            key, _, text = body.partition(b"\0")
            out[key.decode("latin-1")] = text.decode("latin-1")
        elif kind == b"zTXt":
            key, _, rest = body.partition(b"\0")
            out[key.decode("latin-1")] = zlib.decompress(rest[1:]).decode("latin-1")
        elif kind == b"iTXt":
            key, _, rest = body.partition(b"\0")
            compressed, rest = rest[0], rest[2:]
            _lang, _, rest = rest.partition(b"\0")
            _translated, _, text = rest.partition(b"\0")
            out[key.decode("latin-1")] = (zlib.decompress(text) if compressed else text).decode()
        elif kind == b"IEND":
            break
    return out


def _svg_description(data: bytes) -> str | None:
    """The text of the first ``description`` element (Dublin Core) of an SVG file."""
    for element in ElementTree.fromstring(data).iter():
        if element.tag.endswith("}description"):
            return element.text
    return None


def _pdf_string(data: bytes, key: str) -> str | None:
    """A literal string ``/key (...)`` of a PDF's document information (ASCII, escaped)."""
    found = re.search(rb"/" + key.encode() + rb"\s*\(", data)
    if found is None:
        return None
    out = bytearray()
    depth, at = 1, found.end()
    escapes = {ord("n"): b"\n", ord("r"): b"\r", ord("t"): b"\t", ord("b"): b"\b"}
    escapes |= {ord("f"): b"\f"}
    while at < len(data):
        c = data[at]
        if c == ord("\\"):
            nxt = data[at + 1]
            out += escapes.get(nxt, bytes([nxt]))
            at += 2
            continue
        if c == ord("("):
            depth += 1
        elif c == ord(")"):
            depth -= 1
            if depth == 0:
                return out.decode("latin-1")
        out.append(c)
        at += 1
    return None
