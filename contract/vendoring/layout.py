"""Which kit files ``vendor`` writes where: the kit's own layout, or a layout file.

The kit's own layout (``kit``, the default) is :mod:`contract.vendoring.files`: each file under its own
name. Any other layout is a JSON document (``schema/vendor-layout-1.schema.json``); the built-in ones
are ``schema/vendor-layout-<name>.json`` (``training``: the training repository's ``tests/fixtures/``).
Each entry copies kit files (``from``, relative to the kit's data) to names under the target (``to``).
One ``*`` in both (a run of characters without ``/``) copies every kit file it matches, the matched text
carried over; ``probesOf`` keeps only the header and the rows of a probe table whose id is a probe of
that vector file. A plan is the list of target names with their bytes' source; names are checked
(:func:`name_problem`) wherever they come from, so no layout and no lock can name a file outside the
target, nor the lock or a directory in its place. A plan copies each kit file at most once (so no layout,
and no lock recording one, can make ``vendor`` write more than the kit holds), and never names one path
both as a file and as a directory holding another.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, Final

from contract.core.cappedread import read_capped
from contract.core.record import Record
from contract.core.refusal import Refusal
from contract.core.resources import data_root, schema_dir
from contract.core.strictjson import StrictJsonError
from contract.core.strictjson import parse as parse_json
from contract.vendoring.files import contract_files
from contract.vendoring.messages import say

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

KIT_LAYOUT: Final = "kit"
LOCK_NAME: Final = "dicechess-contract.lock.json"
MAX_NAME: Final = 1024
MAX_SEGMENT_BYTES: Final = 255  # the longest file name ext4, APFS, NTFS and most others hold
MAX_LAYOUT_BYTES: Final = 1024 * 1024
_CONTROL: Final = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def name_problem(name: object) -> str | None:
    """Why ``name`` is not a plain relative POSIX name strictly inside a directory (``None``: it is)."""
    if not isinstance(name, str) or name == "":
        return say("name.empty")
    if len(name) > MAX_NAME:
        return say("name.tooLong", limit=MAX_NAME)
    try:
        encoded = name.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: no file system can name it
        return say("name.notUnicode")
    if _CONTROL.search(name):
        return say("name.control")
    if "\\" in name:
        return say("name.backslash")
    if name.startswith("/"):
        return say("name.absolute")
    parts = name.split("/")
    if any(part in (".", "..") for part in parts):
        return say("name.dotSegment")
    if any(part == "" for part in parts):
        return say("name.emptySegment")
    if any(len(part) > MAX_SEGMENT_BYTES for part in encoded.split(b"/")):
        return say("name.segmentTooLong", limit=MAX_SEGMENT_BYTES)
    if parts[0].casefold() == LOCK_NAME.casefold():  # the lock itself (in any case), or a directory in its place
        return say("name.lockName")
    return None


class Planned(Record):
    """One file of a plan: its name under the target, the kit file it comes from, an optional row filter."""

    name: str
    source: str
    probes_of: str | None = None


class Layout(Record):
    """A layout: its name and, for any layout but the kit's own, the document the lock records."""

    name: str
    document: dict[str, Any] | None = None
    origin: str = ""  # where it was read (a file, a lock), for messages


@cache
def _validator() -> Draft202012Validator:
    from jsonschema import Draft202012Validator  # only a layout document is validated: hashing needs none

    schema = json.loads((schema_dir() / "vendor-layout-1.schema.json").read_text(encoding="utf-8"))
    return Draft202012Validator(schema)


def builtin_names() -> list[str]:
    found = [p.name.removeprefix("vendor-layout-").removesuffix(".json")
             for p in schema_dir().glob("vendor-layout-*.json") if not p.name.endswith(".schema.json")]
    return sorted([KIT_LAYOUT, *found])


def _from_document(document: object, where: str) -> Layout | Refusal:
    errors = sorted(_validator().iter_errors(document), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        pointer = "/" + "/".join(str(part) for part in first.absolute_path)
        return Refusal(say("layout.invalid", path=where, reason=f"{pointer}: {first.message}"))
    assert isinstance(document, dict)
    for index, entry in enumerate(document["files"]):
        problem = name_problem(entry["to"].replace("*", "x"))
        if problem is not None:
            return Refusal(say("layout.target", path=where, name=entry["to"], entry=index, reason=problem))
    return Layout(str(document["name"]), dict(document), where)


def read_layout(choice: str) -> Layout | Refusal:
    """A built-in layout by name (``kit``, ``training``), or a layout file (a name ending in ``.json``)."""
    if not choice.endswith(".json"):
        if choice == KIT_LAYOUT:
            return Layout(KIT_LAYOUT)
        if choice not in builtin_names():
            return Refusal(say("layout.unknown", name=choice, known=", ".join(builtin_names())))
        path = schema_dir() / f"vendor-layout-{choice}.json"
    else:
        path = Path(choice)
    try:
        data = read_capped(path, MAX_LAYOUT_BYTES)
        if data is None:
            return Refusal(say("layout.unreadable", path=path, reason=f"larger than {MAX_LAYOUT_BYTES} bytes"))
        document = parse_json(data)
    except OSError as exc:
        return Refusal(say("layout.unreadable", path=path, reason=exc.strerror or exc.__class__.__name__))
    except StrictJsonError as exc:
        return Refusal(say("layout.unreadable", path=path, reason=exc.refusal.message))
    return _from_document(document, str(path))


def recorded_layout(document: object, lock: Path) -> Layout | Refusal:
    """The layout a lock records (``layout``), checked as a layout file is."""
    done = _from_document(document, "layout")
    if isinstance(done, Refusal):
        return Refusal(say("lock.layout", lock=lock, reason=done.message))
    return done


def _pattern(text: str) -> re.Pattern[str]:
    head, _, tail = text.partition("*")
    return re.compile(re.escape(head) + "([^/]+)" + re.escape(tail))


def plan(layout: Layout, root: Path | None = None) -> list[Planned] | Refusal:
    """The files ``layout`` writes, sorted by target name, from the kit's data at ``root``."""
    base = data_root() if root is None else root
    if layout.document is None:
        return [Planned(name, name) for name in contract_files(base)]
    where = layout.origin or layout.name
    every = _kit_files(base)
    planned: dict[str, Planned] = {}
    copied: set[str] = set()  # kit files planned so far: each at most once, so a plan is at most the kit
    for index, entry in enumerate(layout.document["files"]):
        source, target, probes_of = entry["from"], entry["to"], entry.get("probesOf")
        if source.count("*") != target.count("*") or source.count("*") > 1:
            return Refusal(say("layout.pattern", path=where, entry=index,
                               reason="\"from\" and \"to\" must hold the same single '*' or none"))
        if "*" in source:
            matcher = _pattern(source)
            found = [(name, target.replace("*", m[1])) for name in sorted(every) if (m := matcher.fullmatch(name))]
            if not found:
                return Refusal(say("layout.nothing", path=where, entry=index, source=source))
        elif source in every:
            found = [(source, target)]
        else:
            return Refusal(say("layout.source", path=where, entry=index, source=source))
        if probes_of is not None and (len(found) != 1 or probes_of not in every):
            return Refusal(say("layout.probesOf", path=where, entry=index,
                               reason=f"probesOf {probes_of} must be a kit file and \"from\" one file"))
        for name, written in found:
            problem = name_problem(written)
            if problem is not None:
                return Refusal(say("layout.target", path=where, name=written, entry=index, reason=problem))
            if written in planned:
                return Refusal(say("layout.twice", path=where, name=written))
            if name in copied:
                return Refusal(say("layout.sourceTwice", path=where, entry=index, source=name))
            copied.add(name)
            planned[written] = Planned(written, name, probes_of)
            if probes_of is not None:  # the rows it keeps are the kit's data: a kit that cannot give them refuses
                try:
                    planned_bytes(planned[written], base)
                except ValueError as exc:
                    return Refusal(say("layout.probesOf", path=where, entry=index, reason=str(exc)))
    folded: dict[str, str] = {}
    for name in sorted(planned):  # every file and every directory on the way, by case-folded name
        for depth in range(1, name.count("/") + 2):
            prefix = "/".join(name.split("/")[:depth])
            other = folded.setdefault(prefix.casefold(), prefix)
            if other != prefix:
                return Refusal(say("layout.caseTwins", path=where, name=other, other=prefix))
    for name in sorted(planned):
        folders = name.split("/")[:-1]
        for depth in range(1, len(folders) + 1):
            folder = "/".join(folders[:depth])
            if folder in planned:
                return Refusal(say("layout.fileAndDirectory", path=where, name=folder, inside=name))
    return [planned[name] for name in sorted(planned)]


@cache
def _kit_files_at(base: str) -> tuple[str, ...]:
    root = Path(base)
    names = [p.relative_to(root).as_posix() for tree in ("schema", "grammar", "golden")
             for p in (root / tree).rglob("*") if p.is_file()]
    return tuple(sorted(n for n in names if not any(part.startswith(".") or part == "__pycache__"
                                                    for part in PurePosixPath(n).parts)))


def _kit_files(base: Path) -> frozenset[str]:
    return frozenset(_kit_files_at(str(base)))


def _probe_ids(data: bytes) -> set[str] | None:
    try:
        document = parse_json(data, max_bytes=64 * 1024 * 1024)
    except StrictJsonError:
        return None
    probes = document.get("probes") if isinstance(document, dict) else None
    if not isinstance(probes, list):
        return None
    return {p["id"] for p in probes if isinstance(p, dict) and isinstance(p.get("id"), str)}


def planned_bytes(item: Planned, root: Path | None = None) -> bytes:
    """The bytes ``item`` writes (raises OSError or ValueError if the kit's own files are broken)."""
    base = data_root() if root is None else root
    data = (base / item.source).read_bytes()
    if item.probes_of is None:
        return data
    ids = _probe_ids((base / item.probes_of).read_bytes())
    try:
        lines = data.decode("utf-8").splitlines(keepends=True)
    except UnicodeDecodeError:
        lines = []
    if ids is None or not lines:
        raise ValueError(f"{item.probes_of} or {item.source} is not what probesOf reads")
    kept = [line for line in lines[1:] if line.split("\t", 1)[0] in ids]
    if len(kept) != len(ids):
        raise ValueError(f"{item.source} does not hold every probe of {item.probes_of} exactly once")
    return "".join([lines[0], *kept]).encode("utf-8")


__all__ = ["KIT_LAYOUT", "LOCK_NAME", "Layout", "Planned", "builtin_names", "name_problem", "plan",
           "planned_bytes", "read_layout", "recorded_layout"]
