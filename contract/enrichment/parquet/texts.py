"""Arrow text columns as Python values, with a cell whose bytes are not UTF-8 named instead of raised.

Parquet does not check that a ``string`` cell is UTF-8, and some writers store other bytes there;
``pyarrow``'s ``to_pylist`` then raises ``UnicodeDecodeError`` for the whole column. :func:`cells` reads
a column as ``to_pylist`` does and, only when that fails, reads it again as bytes and decodes each cell,
giving a :class:`NotUtf8` for each cell that is not UTF-8 (its bytes, and the text that says where). The
callers turn one into a refusal of that row: ``extract`` rejects the row, ``enrich-shards`` refuses the
shard naming the game, ply and column (docs/enrichment.md). Refuses nothing itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from contract.enrichment.table import require_pyarrow

_SHOWN_BYTES = 24  # bytes of a bad cell quoted in a message


@dataclass(frozen=True)
class NotUtf8:
    """A text cell whose bytes are not UTF-8."""

    raw: bytes

    @property
    def text(self) -> str:
        """The cell as text, each byte that is not UTF-8 written as ``\\xNN`` (for messages and rejects)."""
        return self.raw.decode("utf-8", "backslashreplace")

    def problem(self, column: str) -> str:
        """``<column> is not UTF-8 (byte 0xNN at offset K of b'...')``."""
        try:
            self.raw.decode("utf-8")
            where = ""
        except UnicodeDecodeError as exc:
            where = f"byte 0x{self.raw[exc.start]:02x} at offset {exc.start} of "
        shown = self.raw[:_SHOWN_BYTES]
        more = "..." if len(self.raw) > _SHOWN_BYTES else ""
        return f"{column} is not UTF-8 ({where}{shown!r}{more})"


def _as_bytes(column: Any) -> Any:
    pa = require_pyarrow()
    kind = column.type
    if pa.types.is_large_string(kind):
        return column.cast(pa.large_binary())
    if pa.types.is_string(kind):
        return column.cast(pa.binary())
    return None


def cells(column: Any) -> list[Any]:
    """The column's values as ``to_pylist`` gives them, a text cell that is not UTF-8 as :class:`NotUtf8`."""
    try:
        return list(column.to_pylist())
    except UnicodeDecodeError:
        raw = _as_bytes(column)
        if raw is None:
            raise
    values: list[Any] = []
    for cell in raw.to_pylist():
        if cell is None:
            values.append(None)
            continue
        try:
            values.append(cell.decode("utf-8"))
        except UnicodeDecodeError:
            values.append(NotUtf8(cell))
    return values


def first_bad(row: tuple[Any, ...], names: tuple[str, ...]) -> tuple[str, NotUtf8] | None:
    """The first cell of ``row`` (named by ``names``) that is not UTF-8, with its column's name."""
    for name, value in zip(names, row, strict=True):
        if isinstance(value, NotUtf8):
            return name, value
    return None
