"""Writing the exported tables: CSV, JSON or Parquet, each file with its provenance.

Provenance -- the package's one record (:func:`~shipcaptaincrew.provenance.record`: the
command line, the rules, the line-up's policies as ``bots``, the version from the git commit,
Python, the libraries, the platform and the time), then the table, format, players and the
policies answered -- travels with every file where every command puts it: in Parquet as
schema metadata (key ``shipcaptaincrew``, a JSON text), in JSON as the top-level
``provenance`` object beside ``columns`` and ``rows``, and in CSV as ``# key: value`` lines
above the header (:func:`table_bytes` writes every table so, a crew's season's too).
Columns are typed by :data:`~.export_schema.SCHEMAS` (a Parquet file's Arrow schema is built
from it), so a null stays a null: in CSV an empty field is a null and an empty text is written ``""``.  CSV and
JSON are written with the standard library alone; only Parquet needs pyarrow (the ``sim``
extra).
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..provenance import PROVENANCE_KEY, csv_header, parquet_metadata, record, written
from .export_schema import SCHEMAS, Column, ColumnType, TableKind
from .export_tables import ExportSpec, Row

if TYPE_CHECKING:
    import pyarrow as pa  # type: ignore[import-untyped]

__all__ = [
    "PROVENANCE_KEY",
    "FileFormat",
    "arrow_schema",
    "csv_field",
    "provenance",
    "table_bytes",
    "table_path",
    "write",
]


class FileFormat(str, Enum):
    """The file formats of ``scc export --to``."""

    CSV = "csv"
    JSON = "json"
    PARQUET = "parquet"


def provenance(spec: ExportSpec, kind: TableKind, command: str) -> dict[str, Any]:
    """Where a table comes from: enough to compute it again (exact: no seed)."""
    return record(
        command,
        rules=spec.rules,
        bots=[str(p) for p in spec.lineup],
        table=kind.value,
        format=str(spec.rules.format),
        players=spec.players,
        against=[str(p) for p in spec.against],
    )


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


def arrow_schema(columns: TableKind | Sequence[Column]) -> pa.Schema:
    """The Arrow schema of a table (types from :data:`~.export_schema.SCHEMAS`, or the
    columns given)."""
    import pyarrow as pa

    types = {
        ColumnType.INT: pa.int64(),
        ColumnType.FLOAT: pa.float64(),
        ColumnType.TEXT: pa.string(),
        ColumnType.BOOL: pa.bool_(),
    }
    listed = SCHEMAS[columns] if isinstance(columns, TableKind) else columns
    return pa.schema([pa.field(c.name, types[c.type]) for c in listed])


def write(
    kind: TableKind, rows: list[Row], path: Path, fmt: FileFormat, meta: dict[str, Any]
) -> list[Path]:
    """Write one table to ``path``; returns the files written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(table_bytes(SCHEMAS[kind], rows, fmt, meta))
    return [path]


def table_bytes(
    columns: Sequence[Column], rows: list[Row], fmt: FileFormat, meta: dict[str, Any]
) -> bytes:
    """A table's file in ``fmt``, its provenance ``meta`` where the format keeps it (one
    convention, :mod:`shipcaptaincrew.provenance`).  CSV and JSON need the standard library
    only; Parquet imports pyarrow (``ImportError`` without it)."""
    if fmt is FileFormat.JSON:
        doc = {
            "provenance": written(meta),
            "columns": [
                {"name": c.name, "type": c.type.value, "meaning": c.meaning} for c in columns
            ],
            "rows": rows,
        }
        return (json.dumps(doc, ensure_ascii=False) + "\n").encode()
    if fmt is FileFormat.CSV:
        lines = [",".join(f'"{c.name}"' for c in columns)]
        lines += [",".join(csv_field(r[c.name], c.type) for c in columns) for r in rows]
        return (csv_header(meta) + "\n".join(lines) + "\n").encode()
    assert fmt is FileFormat.PARQUET
    import pyarrow as pa
    import pyarrow.parquet as pq  # type: ignore[import-untyped]

    schema = arrow_schema(columns)
    table = pa.table({c: [r[c] for r in rows] for c in schema.names}, schema=schema)
    table = table.replace_schema_metadata(parquet_metadata(meta))
    buf = io.BytesIO()
    pq.write_table(table, buf)
    return buf.getvalue()


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
