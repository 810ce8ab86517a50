"""Writing the exported tables: CSV, JSON or Parquet, each file with its provenance.

Provenance -- the rules (canonical text), format, players, policies, package version and the
command line -- travels with every file: in Parquet as schema metadata (key ``scc``, a JSON
text), in JSON as the top-level ``provenance`` object beside ``columns`` and ``rows``, and
beside a CSV file as ``<name>.meta.json``.  Columns are typed by
:data:`~.export_schema.SCHEMAS` (a Parquet file's Arrow schema is built from it), so a null
stays a null: in CSV an empty field is a null and an empty text is written ``""``.  CSV and
JSON are written with the standard library alone; only Parquet needs pyarrow (the ``sim``
extra).
"""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import __version__
from .export_schema import SCHEMAS, ColumnType, TableKind
from .export_tables import ExportSpec, Row

if TYPE_CHECKING:
    import pyarrow as pa  # type: ignore[import-untyped]

__all__ = [
    "PROVENANCE_KEY",
    "FileFormat",
    "arrow_schema",
    "csv_field",
    "provenance",
    "table_path",
    "write",
    "write_csv",
]

#: The Parquet schema-metadata key that holds the provenance.
PROVENANCE_KEY = "scc"


class FileFormat(str, Enum):
    """The file formats of ``scc export --to``."""

    CSV = "csv"
    JSON = "json"
    PARQUET = "parquet"


def provenance(spec: ExportSpec, kind: TableKind, command: str) -> dict[str, Any]:
    """Where a table comes from: enough to compute it again."""
    return {
        "table": kind.value,
        "rules": str(spec.rules),
        "format": str(spec.rules.format),
        "players": spec.players,
        "policies": [str(p) for p in spec.lineup],
        "against": [str(p) for p in spec.against],
        "version": __version__,
        "command": command,
    }


def table_path(out: str, kind: TableKind, fmt: FileFormat) -> Path:
    """``out/<table>.<ext>`` when ``out`` is a directory (or ends in a separator), else the
    prefix ``out`` followed by ``_<table>.<ext>``.

    >>> str(table_path("runs/classic", TableKind.DECISIONS, FileFormat.CSV))
    'runs/classic_decisions.csv'
    >>> str(table_path("runs/", TableKind.DECISIONS, FileFormat.PARQUET))
    'runs/decisions.parquet'
    """
    name = f"{kind.value}.{fmt.value}"
    path = Path(out)
    if path.is_dir() or out.endswith(("/", "\\")):
        return path / name
    return path.with_name(f"{path.name}_{name}")


def arrow_schema(kind: TableKind) -> pa.Schema:
    """The Arrow schema of a table (types from :data:`~.export_schema.SCHEMAS`)."""
    import pyarrow as pa

    types = {
        ColumnType.INT: pa.int64(),
        ColumnType.FLOAT: pa.float64(),
        ColumnType.TEXT: pa.string(),
        ColumnType.BOOL: pa.bool_(),
    }
    return pa.schema([pa.field(c.name, types[c.type]) for c in SCHEMAS[kind]])


def write(
    kind: TableKind, rows: list[Row], path: Path, fmt: FileFormat, meta: dict[str, Any]
) -> list[Path]:
    """Write one table to ``path`` (and its sidecar for CSV); returns the files written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if fmt is FileFormat.JSON:
        doc = {
            "provenance": meta,
            "columns": [
                {"name": c.name, "type": c.type.value, "meaning": c.meaning} for c in SCHEMAS[kind]
            ],
            "rows": rows,
        }
        path.write_text(json.dumps(doc, ensure_ascii=False) + "\n", encoding="utf-8")
        return [path]
    if fmt is FileFormat.CSV:
        write_csv(kind, rows, path)
        side = path.with_name(path.name.removesuffix(".csv") + ".meta.json")
        side.write_text(json.dumps(meta, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        return [path, side]
    assert fmt is FileFormat.PARQUET
    import pyarrow as pa
    import pyarrow.parquet as pq  # type: ignore[import-untyped]

    schema = arrow_schema(kind)
    columns = {c: [r[c] for r in rows] for c in schema.names}
    table = pa.table(columns, schema=schema)
    table = table.replace_schema_metadata({PROVENANCE_KEY: json.dumps(meta)})
    pq.write_table(table, path)
    return [path]


def csv_field(value: Any, kind: ColumnType) -> str:
    """One CSV field: a text always quoted (so ``""`` is an empty text), a null empty, a
    float written so that it reads back bit for bit, a bool as ``true``/``false``.

    >>> [csv_field(v, k) for v, k in [('a"b', ColumnType.TEXT), (None, ColumnType.TEXT),
    ...     (0.1, ColumnType.FLOAT), (2.0, ColumnType.FLOAT), (True, ColumnType.BOOL)]]
    ['"a""b"', '', '0.1', '2', 'true']
    """
    if value is None:
        return ""
    if kind is ColumnType.TEXT:
        return '"' + str(value).replace('"', '""') + '"'
    if kind is ColumnType.BOOL:
        return "true" if value else "false"
    if kind is ColumnType.FLOAT:
        text = repr(float(value))
        return text.removesuffix(".0")
    return str(int(value))


def write_csv(kind: TableKind, rows: list[Row], path: Path) -> None:
    """A table as CSV with the standard library only (``scc export`` needs no extra for it)."""
    columns = SCHEMAS[kind]
    lines = [",".join(f'"{c.name}"' for c in columns)]
    lines += [",".join(csv_field(r[c.name], c.type) for c in columns) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8", newline="")
