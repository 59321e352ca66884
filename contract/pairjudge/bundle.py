"""Verify a pairjudge bundle directory without torch: :func:`verify_bundle`.

Three ordered tables, first failure wins (families of ``schema/pairjudge-check-table.json``, which
holds every message; this module binds each check's test by code):

1. :data:`ARGUMENT_CHECKS`: the caller's options (legacy loading needs an explicit label order and
   packer config; each is validated as the reference validates it).
2. :data:`contract.pairjudge.manifest.MANIFEST_CHECKS` (the ``manifest`` layer, the reference's
   ``read_manifest``), then :data:`OVERRIDE_CHECKS` (a caller's packer config or label order must
   equal the stored ones).
3. :data:`BUNDLE_CHECKS` (the ``full`` layer): what the reference's ``from_pretrained`` checks when
   it loads the model, done from files: tokenizer pad/eos/bos ids and padding side against the
   tokenizer files, safetensors headers well-formed, sharded weights consistent with their index,
   the weights complete for the architecture (or, where the kit does not know the architecture, a
   3-row classification head present), adapters with a head and tied to an embedded ``base/`` or
   an exact 40-hex base revision, ``config.json`` classes, pad id, ``id2label`` and ``label2id``
   against ``label_order``, and the manifest's tokenizer metadata.

A bundle without ``pairjudge.json`` is refused unless legacy loading is asked for; a legacy bundle
is treated as ``full`` and still refused for a missing head or a conflicting class mapping.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from contract.core.arguments import is_text_path, unusable_path
from contract.core.checktable import PAIRJUDGE_TABLE as TABLE
from contract.core.checktable import PASS, Entry, Fields, first_failure
from contract.core.consoletext import cut
from contract.pairjudge import adapter, architecture, packer, sidejson, tokenizerjson
from contract.pairjudge.manifest import (
    LABELS,
    MANIFEST_CHECKS,
    MANIFEST_NAME,
    ManifestSubject,
    label_order_problem,
    leaves_bundle,
    schema_warnings,
    unsafe_path,
)
from contract.pairjudge.packer import PackerSubject, Test, json_kind
from contract.pairjudge.safetensors import Header, HeaderRefusal, read_header
from contract.pairjudge.tokenizer import Tokenizer, TokenizerProblem, read_tokenizer
from contract.pairjudge.verdict import Stage, Verdict

Layer = Literal["manifest", "full"]
LAYERS: tuple[Layer, ...] = ("manifest", "full")

CONFIG_FILE = "config.json"
WEIGHTS_FILE = "model.safetensors"
WEIGHTS_INDEX = "model.safetensors.index.json"
ADAPTER_CONFIG = "adapter_config.json"
ADAPTER_WEIGHTS = "adapter_model.safetensors"
BASE_DIR = "base"
EMBEDDED_BASE_ID = "embedded-local-base"
# Side files the reference's loader reads besides the weights (Transformers reads the tokenizer's
# from the bundle's top level, the model's config from the bundle, or from base/ for an adapter).
TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "added_tokens.json",
                   "chat_template.jinja")
FULL_SIDE_FILES = (CONFIG_FILE, WEIGHTS_INDEX)
ADAPTER_SIDE_FILES = (ADAPTER_CONFIG, f"{BASE_DIR}/{CONFIG_FILE}", f"{BASE_DIR}/{WEIGHTS_INDEX}")
_COMMIT = re.compile(r"[0-9a-f]{40}")
_CLASS_COUNT = len(LABELS)

# -- 1. the caller's arguments ---------------------------------------------------------------------


@dataclass
class Arguments:
    """The caller's arguments as given (any Python values: the API's callers are not type-checked)."""

    allow_legacy: Any
    label_order: Any
    packer_config: Any
    bundle: Any = "."
    layer: Any = "full"

    def order(self) -> list[Any] | None:
        """The label order as a list (None when not given); only after the checks passed."""
        return None if self.label_order is None else list(self.label_order)


def python_kind(value: Any) -> str:
    """The Python type of a wrong argument, for messages."""
    return "None" if value is None else type(value).__name__


def _bundle_argument(a: Arguments) -> Fields | None:
    return PASS if is_text_path(a.bundle) else {"kind": python_kind(a.bundle)}


def _usable_bundle(a: Arguments) -> Fields | None:
    return unusable_path_fields("bundle", a.bundle)


def unusable_path_fields(argument: str, path: str | os.PathLike[str]) -> Fields | None:
    """The fields of ``arguments.unusablePath`` when the text path ``path`` cannot name a file (a NUL, a
    lone surrogate: the OS calls would raise), else ``PASS``."""
    text = os.fspath(path)
    reason = unusable_path(text)
    return PASS if reason is None else {"argument": argument, "path": cut(text), "reason": reason}


def _layer_argument(a: Arguments) -> Fields | None:
    return PASS if isinstance(a.layer, str) and a.layer in LAYERS else {"value": repr(a.layer)[:80]}


def _allow_legacy_argument(a: Arguments) -> Fields | None:
    return PASS if isinstance(a.allow_legacy, bool) else {"kind": python_kind(a.allow_legacy)}


def _packer_config_argument(a: Arguments) -> Fields | None:
    ok = a.packer_config is None or isinstance(a.packer_config, Mapping)
    return PASS if ok else {"kind": python_kind(a.packer_config)}


def _legacy_arguments(a: Arguments) -> Fields | None:
    return {} if a.allow_legacy and (a.packer_config is None or a.label_order is None) else PASS


def _label_order_argument(a: Arguments) -> Fields | None:
    order = a.label_order
    if order is None:
        return PASS
    return PASS if isinstance(order, list | tuple) and not label_order_problem(list(order)) else {}


def _packer_argument(a: Arguments) -> PackerSubject:
    return PackerSubject({} if a.packer_config is None else dict(a.packer_config))


ARGUMENT_CHECKS: tuple[Entry[Arguments], ...] = TABLE.checks(
    "arguments",
    {
        "arguments.bundle": _bundle_argument,
        "arguments.unusablePath": _usable_bundle,
        "arguments.layer": _layer_argument,
        "arguments.allow_legacy": _allow_legacy_argument,
        "arguments.packer_config": _packer_config_argument,
        "arguments.legacy": _legacy_arguments,
        "arguments.label_order": _label_order_argument,
        **packer.TESTS,
    },
    {"packerArgument": _packer_argument},
)

# -- the subject of the override and bundle tables -------------------------------------------------


@dataclass
class WeightsFacts:
    """Tensor name -> shape over all files of one model's weights, and the files read."""

    shapes: dict[str, tuple[int, ...]]
    files: list[str]
    # the index, when its weight_map maps no tensor to any shard (Transformers then fails: IndexError)
    empty_index: str | None = None


@dataclass
class BundleSubject:
    bundle: Path
    manifest: ManifestSubject | None  # None: a legacy bundle
    label_order: list[Any]
    arguments: Arguments
    warnings: list[str] = field(default_factory=list)
    tokenizer: Tokenizer | None = None
    config: dict[str, Any] | None = None
    weights: WeightsFacts | None = None
    adapter_weights: Header | None = None
    adapter_config: dict[str, Any] | None = None
    base_config: dict[str, Any] | None = None
    base_weights: WeightsFacts | None = None

    @property
    def document(self) -> dict[str, Any]:
        return {} if self.manifest is None else dict(self.manifest.document)

    @property
    def artifact_type(self) -> str:
        return "full" if self.manifest is None else str(self.manifest.document["artifact_type"])

    @property
    def full(self) -> bool:
        return self.artifact_type == "full"

    def listed(self, relative: str) -> bool:
        files = self.document.get("files")
        return isinstance(files, dict) and any(os.path.normpath(k) == relative for k in files)


# -- 2b. caller overrides against the stored manifest ----------------------------------------------


def _packer_override(s: BundleSubject) -> Fields | None:
    given = s.arguments.packer_config
    if given is None or s.manifest is None:
        return PASS
    return PASS if PackerSubject(given).filled() == s.manifest.packer.filled() else {}


def _label_order_override(s: BundleSubject) -> Fields | None:
    given = s.arguments.label_order
    if given is None or s.manifest is None:
        return PASS
    return PASS if list(given) == s.label_order else {}


OVERRIDE_CHECKS: tuple[Entry[BundleSubject], ...] = TABLE.checks(
    "override", {"override.packer": _packer_override, "override.label_order": _label_order_override}, {}
)

# -- 3. the files behind the manifest --------------------------------------------------------------


def _read_json_file(path: Path, name: str, warnings: list[str]) -> tuple[Any, str | None]:
    """(value, None) or (None, problem) for a side JSON file such as config.json."""
    parsed = sidejson.read_side_json(path, name)
    if parsed is None:
        return None, TABLE.text("detail.file.missing", name=name)
    if isinstance(parsed, str):
        return None, parsed
    warnings.extend(parsed.warnings)
    if not isinstance(parsed.value, dict):
        return None, TABLE.text("detail.file.notObject", name=name)
    return parsed.value, None


def _header(path: Path, name: str, warnings: list[str]) -> Header | str:
    if not os.path.isfile(path):
        return TABLE.text("detail.file.missing", name=name)
    header = read_header(path)
    if isinstance(header, HeaderRefusal):
        return TABLE.text("detail.safetensors.malformed", name=name, problem=header.problem)
    warnings.extend(TABLE.text("warning.file.prefixed", name=name, warning=w) for w in header.warnings)
    return header


def _sharded_weights(directory: Path, prefix: str, warnings: list[str]) -> WeightsFacts | str:
    """Shards named by ``model.safetensors.index.json``, checked against each other and the index."""
    index_name = prefix + WEIGHTS_INDEX
    index, problem = _read_json_file(directory / WEIGHTS_INDEX, index_name, warnings)
    if problem is not None:
        return problem
    weight_map = index.get("weight_map")
    if not isinstance(weight_map, dict) or not all(isinstance(v, str) for v in weight_map.values()):
        return TABLE.text("detail.shards.noWeightMap", index=index_name)
    if not weight_map:
        return WeightsFacts({}, [], empty_index=index_name)
    held: dict[str, tuple[int, ...]] = {}
    owner: dict[str, str] = {}
    total = 0
    shards = list(dict.fromkeys(weight_map.values()))
    for shard in shards:
        if unsafe_path(shard) or "/" in shard or shard in ("", "."):
            return TABLE.text("detail.shards.unsafe", index=index_name, shard=repr(shard))
        header = _header(directory / shard, prefix + shard, warnings)
        if isinstance(header, str):
            return header
        for name, info in header.tensors.items():
            if name in owner:
                return TABLE.text("detail.shards.duplicate", name=repr(name), first=prefix + owner[name],
                                  second=prefix + shard)
            owner[name] = shard
            held[name] = info.shape
            total += info.nbytes
    # Transformers loads the weight_map's tensors from the shards it names (observed 2026-12-04,
    # fuzz-tuning-h): a mapped tensor its shard lacks is missing, a tensor the map does not name is
    # not loaded (both missing keys for a full model; newly initialised in a base)
    shapes: dict[str, tuple[int, ...]] = {}
    for name, shard in weight_map.items():
        if owner.get(name, shard) != shard:  # held, but by another shard than the map names: undecided
            return TABLE.text("detail.shards.notHeld", index=index_name, name=repr(name), shard=shard,
                              other=prefix + owner[name])
        if name in owner:
            shapes[name] = held[name]
    stray = sorted(set(owner) - set(weight_map))
    if stray:
        warnings.append(TABLE.text("warning.shards.unlisted", shard=prefix + owner[stray[0]], name=repr(stray[0]),
                                   index=index_name, count=len(stray)))
    metadata = index.get("metadata")
    declared = metadata.get("total_size") if isinstance(metadata, dict) else None
    if declared != total:
        warnings.append(TABLE.text("warning.shards.totalSize", index=index_name, declared=repr(declared), total=total))
    return WeightsFacts(shapes, [prefix + shard for shard in shards])


def _model_weights(directory: Path, prefix: str, warnings: list[str]) -> WeightsFacts | str:
    """The weights Transformers would load from ``directory`` (single file first, then shards)."""
    if os.path.isfile(directory / WEIGHTS_FILE):
        header = _header(directory / WEIGHTS_FILE, prefix + WEIGHTS_FILE, warnings)
        if isinstance(header, str):
            return header
        return WeightsFacts({n: t.shape for n, t in header.tensors.items()}, [prefix + WEIGHTS_FILE])
    if os.path.isfile(directory / WEIGHTS_INDEX):
        return _sharded_weights(directory, prefix, warnings)
    return TABLE.text("detail.weights.none", file=prefix + WEIGHTS_FILE, index=prefix + WEIGHTS_INDEX)


def _warn_unlisted(s: BundleSubject, names: Sequence[str]) -> None:
    """For each file the loader reads: not listed (its digest unchecked), or leading outside the
    bundle through a link (a listed one is warned about by the digest check)."""
    for name in names:
        if s.manifest is not None and s.listed(name):
            continue
        if s.manifest is not None:
            s.warnings.append(TABLE.text("warning.files.unlisted", name=name))
        if leaves_bundle(s.bundle, s.bundle / name):
            s.warnings.append(TABLE.text("warning.files.linkOutside", name=name))


def side_files_read(s: BundleSubject) -> list[str]:
    """The side files of :data:`TOKENIZER_FILES` and the layout's that are there to be read."""
    names = TOKENIZER_FILES + (FULL_SIDE_FILES if s.full else ADAPTER_SIDE_FILES)
    return [name for name in names if os.path.lexists(s.bundle / name)]


def _loader_fields(s: BundleSubject) -> Fields | None:
    """Manifest fields the loader reads with ``.get``/``[]`` (a wrong type fails it there)."""
    if s.manifest is None:
        return PASS
    document = s.document
    fields = [("inference", document), ("source", document)]
    if not s.full:
        if "source" not in document:
            return {"field": "source", "problem": TABLE.text("detail.loader.sourceMissing")}
        training = document["training"]
        fields += [("model_config", document), ("config", training)]
    for name, holder in fields:
        if name in holder and not isinstance(holder[name], dict):
            where = "training.config" if name == "config" else name
            return {"field": where, "problem": TABLE.text("detail.loader.notObject", kind=json_kind(holder[name]))}
    return PASS


def _tokenizer_files(s: BundleSubject) -> Fields | None:
    found = read_tokenizer(s.bundle)
    if isinstance(found, TokenizerProblem):
        return {"problem": found.problem}
    s.tokenizer = found
    s.warnings.extend(found.warnings)
    return PASS


def _pad_token(s: BundleSubject) -> Fields | None:
    assert s.tokenizer is not None
    return PASS if s.tokenizer.pad_token_id is not None else {}


def _config(s: BundleSubject) -> Fields | None:
    if not s.full:
        return PASS
    value, problem = _read_json_file(s.bundle / CONFIG_FILE, CONFIG_FILE, s.warnings)
    if problem is not None:
        return {"problem": problem}
    s.config = value
    return PASS


def _full_weights(s: BundleSubject) -> Fields | None:
    if not s.full:
        return PASS
    found = _model_weights(s.bundle, "", s.warnings)
    if isinstance(found, str):
        return {"problem": found}
    s.weights = found
    _warn_unlisted(s, found.files)
    return PASS


def _weights_empty(s: BundleSubject) -> Fields | None:
    if not s.full:
        return PASS
    assert s.weights is not None
    if s.weights.empty_index is None:
        return PASS
    return {"problem": TABLE.text("detail.weights.emptyIndex", index=s.weights.empty_index)}


def _architecture_shapes(config: Mapping[str, Any]) -> tuple[architecture.Shapes, str] | str:
    """Every tensor the config's architecture needs and the base-model prefix, or why the kit
    cannot say (then it refuses: an unknown architecture is undecided, not accepted)."""
    model_type = config.get("model_type")
    known = architecture.ARCHITECTURES.get(model_type) if isinstance(model_type, str) else None
    if known is None:
        return TABLE.text("detail.architecture.unknown", modelType=repr(model_type),
                          known=", ".join(sorted(architecture.ARCHITECTURES)))
    shapes = known.tensors(config)
    return shapes if isinstance(shapes, str) else (shapes, known.prefix)


def _config_architecture(s: BundleSubject) -> Fields | None:
    if not s.full:
        return PASS
    assert s.config is not None
    found = _architecture_shapes(s.config)
    return {"problem": found} if isinstance(found, str) else PASS


def _weights_complete(s: BundleSubject) -> Fields | None:
    if not s.full:
        return PASS
    assert s.config is not None and s.weights is not None
    found = _architecture_shapes(s.config)
    assert not isinstance(found, str)
    info = architecture.compare(found[0], s.weights.shapes, found[1])
    return PASS if info.complete else {"detail": info.render()}


def _adapter_config(s: BundleSubject) -> Fields | None:
    if s.full:
        return PASS
    value, problem = _read_json_file(s.bundle / ADAPTER_CONFIG, ADAPTER_CONFIG, s.warnings)
    if problem is not None:
        return {"problem": problem}
    s.adapter_config = value
    return PASS


def _adapter_weights(s: BundleSubject) -> Fields | None:
    if s.full:
        return PASS
    header = _header(s.bundle / ADAPTER_WEIGHTS, ADAPTER_WEIGHTS, s.warnings)
    if isinstance(header, str):
        return {"problem": header}
    s.adapter_weights = header
    _warn_unlisted(s, [ADAPTER_WEIGHTS])
    return PASS


def _adapter_heads(s: BundleSubject) -> list[str]:
    assert s.adapter_weights is not None
    return [name for name in s.adapter_weights.tensors if architecture.is_head(name)]


def _adapter_head(s: BundleSubject) -> Fields | None:
    return PASS if s.full or _adapter_heads(s) else {}


def _adapter_head_rows(s: BundleSubject) -> Fields | None:
    if s.full:
        return PASS
    assert s.adapter_weights is not None
    heads = _adapter_heads(s)
    if any(s.adapter_weights.tensors[n].shape[:1] == (_CLASS_COUNT,) for n in heads):
        return PASS
    return {"name": repr(heads[0]), "shape": list(s.adapter_weights.tensors[heads[0]].shape)}


def _canonical_digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _embedded_base(s: BundleSubject, source: Mapping[str, Any]) -> Fields | None:
    base = s.bundle / BASE_DIR
    config, problem = _read_json_file(base / CONFIG_FILE, f"{BASE_DIR}/{CONFIG_FILE}", s.warnings)
    if problem is not None:
        return {"problem": problem}
    found = _model_weights(base, f"{BASE_DIR}/", s.warnings)
    if isinstance(found, str):
        return {"problem": found}
    problem = adapter.base_problem(config, found.shapes)
    if problem is not None:
        return {"problem": problem}
    s.base_config = config
    s.base_weights = found
    _warn_unlisted(s, found.files)
    listed = s.document.get("files")
    files: dict[str, Any] = listed if isinstance(listed, dict) else {}
    local = source.get("local_base_files")
    if source.get("model_id") != EMBEDDED_BASE_ID:
        s.warnings.append(TABLE.text("warning.base.modelId", modelId=repr(source.get("model_id")),
                                     expected=repr(EMBEDDED_BASE_ID)))
    if not isinstance(local, dict):
        s.warnings.append(TABLE.text("warning.base.noDigests"))
        return PASS
    for name, digest in local.items():
        if files.get(f"{BASE_DIR}/{name}") != digest:
            s.warnings.append(TABLE.text("warning.base.digest", name=repr(name), path=f"{BASE_DIR}/{name}"))
    if source.get("model_revision") != _canonical_digest(local):
        s.warnings.append(TABLE.text("warning.base.revision"))
    return PASS


def _adapter_base(s: BundleSubject) -> Fields | None:
    if s.full:
        return PASS
    source = s.document.get("source")
    source = source if isinstance(source, dict) else {}
    if os.path.isdir(s.bundle / BASE_DIR):
        return _embedded_base(s, source)
    model_id, revision = source.get("model_id"), source.get("model_revision")
    if not isinstance(model_id, str) or not model_id or model_id == EMBEDDED_BASE_ID:
        return {"problem": TABLE.text("detail.base.noHubModel")}
    if not isinstance(revision, str) or not _COMMIT.fullmatch(revision):
        return {"problem": TABLE.text("detail.base.revision", revision=repr(revision))}
    return {"problem": TABLE.text("detail.base.notEmbedded", model=model_id, revision=revision)}


def _adapter_untrained(s: BundleSubject) -> Fields | None:
    """An embedded base whose index maps nothing (the reference fails), or weights the reference would
    newly initialise: base tensors its config names but no file holds, no LoRA tensor at all."""
    if s.full:
        return PASS
    assert s.base_config is not None and s.base_weights is not None and s.adapter_weights is not None
    if s.base_weights.empty_index is not None:
        return {"problem": TABLE.text("detail.weights.emptyIndex", index=s.base_weights.empty_index)}
    problem = adapter.untrained_problem(s.base_config, s.base_weights.shapes, s.adapter_weights.tensors)
    return PASS if problem is None else {"problem": problem}


def _adapter_lora(s: BundleSubject) -> Fields | None:
    if s.full:
        return PASS
    assert s.adapter_config is not None and s.base_config is not None and s.adapter_weights is not None
    overrides = s.document.get("model_config", {})
    problem = adapter.override_problem(overrides)
    if problem is not None:
        return {"problem": problem}
    shapes = {name: info.shape for name, info in s.adapter_weights.tensors.items()}
    problem = adapter.lora_problem(s.adapter_config, s.base_config, shapes)
    return PASS if problem is None else {"problem": problem}


def _config_mapping(s: BundleSubject) -> Fields | None:
    if not s.full:
        return PASS
    assert s.config is not None
    mapping = architecture.id2label(s.config)
    return {"problem": mapping} if isinstance(mapping, str) else PASS


def _classes(s: BundleSubject) -> Fields | None:
    if not s.full:
        return PASS
    assert s.config is not None
    mapping = architecture.id2label(s.config)
    return PASS if isinstance(mapping, dict) and len(mapping) == _CLASS_COUNT else {}


def _pad_matches(s: BundleSubject) -> Fields | None:
    assert s.tokenizer is not None
    if s.full:
        assert s.config is not None
        model_pad = s.config.get("pad_token_id")
    else:  # the loader sets the tokenizer's pad id, then applies the manifest's model_config
        overrides = s.document.get("model_config", {})
        model_pad = overrides.get("pad_token_id", s.tokenizer.pad_token_id)
    return PASS if model_pad == s.tokenizer.pad_token_id else {}


def _class_mapping(s: BundleSubject) -> Fields | None:
    if not s.full:
        return PASS
    assert s.config is not None
    mapping = architecture.id2label(s.config)
    assert isinstance(mapping, dict)
    return PASS if [mapping.get(i) for i in range(_CLASS_COUNT)] == s.label_order else {}


def _label2id(s: BundleSubject) -> Fields | None:
    if not s.full:
        return PASS
    assert s.config is not None
    expected = {label: index for index, label in enumerate(s.label_order)}
    return PASS if s.config.get("label2id") == expected else {}  # a missing one is not derived (observed)


def _tokenizer_block(s: BundleSubject) -> Fields | None:
    if s.manifest is None:
        return PASS
    block = s.document["tokenizer"]
    return PASS if isinstance(block, dict) else {"kind": json_kind(block)}


@dataclass(frozen=True)
class TokenizerEntry:
    key: str
    value: Any
    tokenizer: Tokenizer


def _tokenizer_entries(s: BundleSubject) -> Iterator[TokenizerEntry]:
    if s.manifest is None:
        return
    assert s.tokenizer is not None
    for key, value in s.document["tokenizer"].items():
        yield TokenizerEntry(key, value, s.tokenizer)


def _known_attribute(e: TokenizerEntry) -> Fields | None:
    return PASS if e.key in e.tokenizer.attributes else {"key": repr(e.key)}


def _attribute_matches(e: TokenizerEntry) -> Fields | None:
    return PASS if e.tokenizer.attributes[e.key] == e.value else {"key": e.key}


def _packer_fields(s: BundleSubject) -> dict[str, Any]:
    if s.manifest is not None:
        return s.manifest.packer.filled()
    return PackerSubject(s.arguments.packer_config or {}).filled()


def _packer_encodes(s: BundleSubject) -> Fields | None:
    """The judge's packer tokenises ``ellipsis`` and ``final_instruction`` when it is built."""
    assert s.tokenizer is not None
    packer = _packer_fields(s)
    for name in ("ellipsis", "final_instruction"):
        count = tokenizerjson.token_count(s.tokenizer.document, packer[name])
        if isinstance(count, str):
            return {"name": name, "problem": count}
    return PASS


def _packer_overhead(s: BundleSubject) -> Fields | None:
    """``max_length`` must exceed BOS/EOS (where the tokenizer has them) plus final_instruction."""
    assert s.tokenizer is not None
    packer = _packer_fields(s)
    count = tokenizerjson.token_count(s.tokenizer.document, packer["final_instruction"])
    assert not isinstance(count, str)
    special = sum(
        1 for flag, role in (("add_bos", "bos"), ("add_eos", "eos"))
        if packer[flag] and s.tokenizer.attributes[f"{role}_token_id"] is not None
    )
    max_length = packer["max_length"]
    if count.high is not None and max_length > special + count.high:
        return PASS
    if max_length <= special + count.low and count.low == count.high:
        return {"message": TABLE.text("detail.overhead.cannotFit", maxLength=max_length, tokens=special + count.low)}
    high = "?" if count.high is None else special + count.high
    return {
        "message": TABLE.text("detail.overhead.undecided", maxLength=max_length, low=special + count.low, high=high)
    }


BUNDLE_TESTS: dict[str, Test] = {
    "manifest.loader_fields": _loader_fields,
    "tokenizer.files": _tokenizer_files,
    "tokenizer.pad": _pad_token,
    "config.file": _config,
    "config.architecture": _config_architecture,
    "weights.files": _full_weights,
    "weights.empty": _weights_empty,
    "weights.complete": _weights_complete,
    "adapter.config": _adapter_config,
    "adapter.weights": _adapter_weights,
    "adapter.head": _adapter_head,
    "adapter.head_rows": _adapter_head_rows,
    "adapter.base": _adapter_base,
    "adapter.untrained": _adapter_untrained,
    "adapter.lora": _adapter_lora,
    "config.id2label": _config_mapping,
    "model.classes": _classes,
    "model.pad": _pad_matches,
    "model.id2label": _class_mapping,
    "model.label2id": _label2id,
    "tokenizer.metadata": _tokenizer_block,
    "tokenizer.metadata.key": _known_attribute,
    "tokenizer.metadata.value": _attribute_matches,
    "packer.encodes": _packer_encodes,
    "packer.overhead": _packer_overhead,
}
"""The test of each check of the ``bundle`` family, by code; order and messages are the table's."""

BUNDLE_CHECKS: tuple[Entry[BundleSubject], ...] = TABLE.checks(
    "bundle", BUNDLE_TESTS, {"tokenizerKey": _tokenizer_entries}
)

# -- the whole verification ------------------------------------------------------------------------


def _unique(items: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


def _refused(code: str, message: str, stage: Stage, warnings: Sequence[str]) -> Verdict:
    return Verdict(False, message, _unique(warnings), code, stage)


def verify_bundle(
    bundle: Path | str,
    *,
    layer: Layer = "full",
    allow_legacy: bool = False,
    label_order: Sequence[Any] | None = None,
    packer_config: Mapping[str, Any] | None = None,
) -> Verdict:
    """Verify the bundle directory ``bundle``; refusals are returned, never raised.

    ``label_order`` and ``packer_config`` play the reference loader's arguments of the same name
    (a packer config is a mapping of ``PackerConfig`` fields, absent ones taking the defaults);
    with a manifest present they must equal the stored values.
    """
    arguments = Arguments(allow_legacy, label_order, packer_config, bundle, layer)
    failure = first_failure(ARGUMENT_CHECKS, arguments)
    if failure is not None:
        return _refused(failure.code, failure.message, "arguments", [])
    # the checks passed: from here on the caller's label order is a list and its packer a dict (copies)
    arguments.label_order = arguments.order()
    arguments.packer_config = None if packer_config is None else dict(packer_config)
    root = Path(bundle)

    legacy = allow_legacy and os.path.isdir(root) and not os.path.exists(root / MANIFEST_NAME)
    manifest: ManifestSubject | None = None
    warnings: list[str] = []
    if legacy:
        if layer == "manifest":
            return _refused("manifest.legacy", TABLE.text("manifest.legacy"), "manifest", [])
        assert arguments.label_order is not None
        stored_order = arguments.label_order
        warnings.append(TABLE.text("warning.legacy"))
    else:
        manifest = ManifestSubject(root)
        failure = first_failure(MANIFEST_CHECKS, manifest)
        if failure is not None:
            return _refused(failure.code, failure.message, "manifest", manifest.warnings)
        warnings = manifest.warnings
        warnings.extend(schema_warnings(manifest.document))
        stored_order = manifest.label_order()

    subject = BundleSubject(root, manifest, stored_order, arguments, warnings)
    tables: list[tuple[Stage, Sequence[Entry[BundleSubject]]]] = [("manifest", OVERRIDE_CHECKS)]
    if layer == "full":
        _warn_unlisted(subject, side_files_read(subject))
        tables.append(("bundle", BUNDLE_CHECKS))
    for stage, table in tables:
        failure = first_failure(table, subject)
        if failure is not None:
            return _refused(failure.code, failure.message, stage, subject.warnings)
    digest = None if manifest is None else hashlib.sha256(manifest.raw).hexdigest()
    return Verdict(True, None, _unique(subject.warnings), None, None, digest)
