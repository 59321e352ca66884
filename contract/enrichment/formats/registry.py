"""The formats by name: the one place a format's name is looked up (every run goes through here).

``extract`` reads and writes the formats that file names can choose (``--format``, or each file's
extension: ``.jsonl``/``.ndjson`` JSONL, ``.parquet``/``.pq`` Parquet); ``enrich-shards`` names its
format itself (``training``: a raw shard is a ``.parquet`` file too, so no extension chooses it). A new
format is a module implementing :class:`contract.enrichment.format.Format` and one entry below; no run
changes.
"""

from __future__ import annotations

from pathlib import Path

from contract.enrichment.format import Format
from contract.enrichment.formats import jsonl, parquet, training
from contract.enrichment.rows import OptionError

_BY_NAME: dict[str, Format] = {module.NAME: module for module in (jsonl, parquet, training)}

DEFAULT = jsonl.NAME  # extract's stream run: stdin, stdout, and a file name no format claims


def file_formats() -> tuple[str, ...]:
    """The formats a file name can choose: what ``extract`` reads and writes (``--format``)."""
    return tuple(name for name, module in _BY_NAME.items() if module.EXTENSIONS)


def extensions() -> dict[str, str]:
    """File name ending -> format name."""
    return {extension: name for name, module in _BY_NAME.items() for extension in module.EXTENSIONS}


FILE_FORMATS = file_formats()  # as the command line offers them


def get(name: str) -> Format:
    """The format called ``name`` (a usage error naming the file formats when there is none)."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise OptionError(f"unknown format {name!r}; use one of: {', '.join(file_formats())}") from None


def of_path(path: Path) -> str | None:
    """The format a file name's extension means, or ``None``."""
    return extensions().get(path.suffix.lower())
