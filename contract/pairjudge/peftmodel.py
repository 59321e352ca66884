"""The PEFT model the reference builds for a LoRA adapter, and where the adapter's saved tensors land.

pairjudge 0.3.0 loads an adapter with ``PeftModel.from_pretrained(base classifier, bundle)`` (PEFT
0.21.2). What decides whether the saved tensor *names* fit, as that code does it:

1. ``PeftModelForSequenceClassification`` appends ``classifier`` and ``score`` to ``modules_to_save``
   (``null`` becomes those two).
2. LoRA goes on every module of the base model (containers included) that ``target_modules`` names
   (a list: the module's name or a name ending in ``.<entry>``; a string: a regular expression
   matching the whole name; ``all-linear``: every Linear/Conv1D layer; null or absent: GPT-2's
   ``c_attn``, PEFT's default for the model type), except where a
   ``modules_to_save`` entry ``m`` matches: ``re.match(rf"(^|.*\\.){m}($|\\..*)", name)``. Only
   Linear, Conv1D and Embedding layers can carry LoRA; nothing targeted fails.
3. Every module whose name *ends with* a ``modules_to_save`` entry (a plain string suffix) is
   wrapped; loading looks each of its parameters up under ``base_model.model.<module>.<param>`` in
   the saved tensors (``KeyError`` when absent), stores it as
   ``<module>.modules_to_save.default.<param>`` and drops the saved name.
4. A LoRA tensor saved as ``<module>.lora_A.weight`` lands on ``<module>.lora_A.default.weight``
   (every adapter parameter, its adapter name removed); every other name is kept as it is.
5. ``load_state_dict(strict=False)``: a tensor whose name (after 3 and 4) is a parameter of the model
   must have that parameter's shape (``size mismatch``); other names are ignored; a missing LoRA
   tensor is only warned about.

The module tree here is GPT-2's (the only architecture the kit knows), from the tensor table of
:mod:`contract.pairjudge.architecture`. Where a wrap would land on something other than a plain
layer (a container, a LoRA layer, PEFT's own wrappers) the kit does not decide. Functions return a
problem sentence or a result; they never raise.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from contract.core.checktable import PAIRJUDGE_TABLE as TABLE

PEFT_PREFIX = "base_model.model."
ADAPTER_NAME = "default"
CLASSIFIER_MODULES = ("classifier", "score")  # PeftModelForSequenceClassification adds these to modules_to_save
ADAPTABLE = frozenset({"linear", "conv1d", "embedding"})  # the layer kinds LoRA can adapt (others fail)
LINEAR = frozenset({"linear", "conv1d"})
# PEFT's LoRA targets for GPT-2 when target_modules is null or absent
# (TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING; observed: an adapter_config.json without them loads)
GPT2_DEFAULT_TARGETS = ["c_attn"]

Shape = tuple[int, ...]

# GPT-2's modules in the order torch's named_modules() lists them, with their kind: those without
# parameters included (a modules_to_save or target entry may name them), the per-block part apart.
_GPT2_TOP = (("transformer", "container"), ("transformer.wte", "embedding"), ("transformer.wpe", "embedding"),
             ("transformer.drop", "plain"), ("transformer.h", "container"))
_GPT2_BLOCK = (("", "container"), (".ln_1", "layernorm"), (".attn", "container"), (".attn.c_attn", "conv1d"),
               (".attn.c_proj", "conv1d"), (".attn.attn_dropout", "plain"), (".attn.resid_dropout", "plain"),
               (".ln_2", "layernorm"))
_GPT2_CROSS = ((".crossattention", "container"), (".crossattention.c_attn", "conv1d"),
               (".crossattention.q_attn", "conv1d"), (".crossattention.c_proj", "conv1d"),
               (".crossattention.attn_dropout", "plain"), (".crossattention.resid_dropout", "plain"),
               (".ln_cross_attn", "layernorm"))  # with add_cross_attention
_GPT2_MLP = ((".mlp", "container"), (".mlp.c_fc", "conv1d"), (".mlp.c_proj", "conv1d"), (".mlp.act", "plain"),
             (".mlp.dropout", "plain"))
_GPT2_END = (("transformer.ln_f", "layernorm"), ("score", "linear"))
# A LoRA layer's own modules (observed names), and PEFT's wrapper's.
_LORA_PARTS = ("base_layer", "lora_dropout", "lora_dropout." + ADAPTER_NAME, "lora_A", "lora_A." + ADAPTER_NAME,
               "lora_B", "lora_B." + ADAPTER_NAME, "lora_embedding_A", "lora_embedding_B", "lora_magnitude_vector")
_WRAPPER_PARTS = ("original_module", "modules_to_save", "modules_to_save." + ADAPTER_NAME)


@dataclass(frozen=True)
class Module:
    kind: str  # container, embedding, layernorm, conv1d, linear, plain (no parameters)
    params: Mapping[str, Shape] = field(default_factory=dict)  # own parameters, in torch's order


@dataclass(frozen=True)
class PeftModel:
    """The loaded model's parameters (full names and shapes), the modules PEFT wraps to save, in
    named_modules order, and the saved name -> model name of every LoRA parameter."""

    params: Mapping[str, Shape]
    wrapped: Sequence[str]
    lora_names: Mapping[str, str]
    modules: Mapping[str, Module]


def gpt2_modules(tensors: Mapping[str, Shape], layers: int) -> dict[str, Module]:
    """GPT-2's modules, in order, with their parameters taken from the tensor table ``tensors``."""
    order = list(_GPT2_TOP)
    cross = any(".crossattention." in name for name in tensors)
    for layer in range(layers):
        parts = _GPT2_BLOCK + (_GPT2_CROSS if cross else ()) + _GPT2_MLP
        order += [(f"transformer.h.{layer}{suffix}", kind) for suffix, kind in parts]
    order += _GPT2_END
    return {name: Module(kind, {t.removeprefix(name + "."): s for t, s in tensors.items()
                                if t.rpartition(".")[0] == name}) for name, kind in order}


def _excludes(entry: str, name: str) -> bool:
    return re.match(rf"(^|.*\.){entry}($|\..*)", name) is not None


def targeted(targets: object, entries: Sequence[str], modules: Mapping[str, Module]) -> list[str] | str:
    """The modules LoRA adapts (rule 2), or why PEFT fails to inject it."""
    if targets == "all-linear":
        targets = sorted({name.rpartition(".")[2] for name, m in modules.items() if m.kind in LINEAR})
    if not isinstance(targets, str) and not (isinstance(targets, list) and all(isinstance(t, str) for t in targets)):
        return TABLE.text("detail.adapter.targetsType", targets=repr(targets))
    found: list[str] = []
    for name, module in modules.items():
        try:
            if any(_excludes(entry, name) for entry in entries):
                continue
            hit = (re.fullmatch(targets, name) is not None if isinstance(targets, str)
                   else name in targets or any(name.endswith("." + t) for t in targets))
        except re.error as exc:
            return TABLE.text("detail.adapter.pattern", targets=repr(targets), entries=repr(list(entries)),
                              problem=exc)
        if hit and module.kind not in ADAPTABLE:
            return TABLE.text("detail.adapter.notAdaptable", module=name, kind=module.kind)
        if hit:
            found.append(name)
    return found


def _lora_params(module: Module, rank: int, bias: bool) -> dict[str, Shape]:
    """A LoRA layer's own parameters (model names below the module, adapter name included)."""
    weight = module.params["weight"]
    if module.kind == "embedding":  # nn.Embedding: [num_embeddings, embedding_dim]
        return {f"lora_embedding_A.{ADAPTER_NAME}": (rank, weight[0]),
                f"lora_embedding_B.{ADAPTER_NAME}": (weight[1], rank)}
    # Conv1D stores [in, out], Linear [out, in]
    in_features, out_features = (weight[0], weight[1]) if module.kind == "conv1d" else (weight[1], weight[0])
    params: dict[str, Shape] = {f"lora_A.{ADAPTER_NAME}.weight": (rank, in_features),
                                f"lora_B.{ADAPTER_NAME}.weight": (out_features, rank)}
    if bias:
        params[f"lora_B.{ADAPTER_NAME}.bias"] = (out_features,)
    return params


def _saved_name(model_name: str) -> str:
    """The name a LoRA parameter is saved under: its adapter name removed (PEFT's rule)."""
    if model_name.endswith("." + ADAPTER_NAME):
        return model_name.removesuffix("." + ADAPTER_NAME)
    head, _, last = model_name.rpartition(".")
    return f"{head.removesuffix('.' + ADAPTER_NAME)}.{last}"


def _wrapped(entries: Sequence[str], modules: Mapping[str, Module], lora: Sequence[str]) -> list[str] | str:
    """The base modules wrapped to be saved (rule 3), or why the kit does not decide: PEFT matches
    the entries first against the base model's names, LoRA layers in place, then against the PEFT
    model's (prefixed) names, its wrappers in place."""
    names: list[tuple[str, str | None]] = [(name, name) for name in modules]
    names += [(f"{name}.{part}", None) for name in lora for part in _LORA_PARTS]
    names += [("base_model", None), (PEFT_PREFIX.rstrip("."), None)]
    names += [(PEFT_PREFIX + name, name) for name in modules]
    names += [(f"{PEFT_PREFIX}{name}.{part}", None) for name in lora for part in _LORA_PARTS]
    wrapped: list[str] = []
    for name, base in names:
        if not any(name.endswith(entry) for entry in entries):
            continue
        if base is None or base in lora or modules[base].kind == "container":
            what = "a LoRA layer" if base in lora else "PEFT's own module" if base is None else "a container"
            return TABLE.text("detail.adapter.wrapUndecided", module=name, what=what)
        if base not in wrapped:
            wrapped.append(base)
    for base in list(wrapped):  # PEFT's wrapper parts, named on the second pass
        for part in _WRAPPER_PARTS:
            if any(f"{PEFT_PREFIX}{base}.{part}".endswith(entry) for entry in entries):
                return TABLE.text("detail.adapter.wrapUndecided", module=f"{PEFT_PREFIX}{base}.{part}",
                                  what="PEFT's own module")
    return [name for name in modules if name in wrapped]  # named_modules order


def build(config: Mapping[str, object], modules: Mapping[str, Module], rank: int) -> PeftModel | str:
    """The PEFT model for ``config`` (a plain-LoRA adapter_config.json, already checked) on ``modules``."""
    saved = config.get("modules_to_save")
    entries = [*(saved if isinstance(saved, list) else []), *CLASSIFIER_MODULES]
    entries = [e for e in entries if isinstance(e, str)]
    targets = config.get("target_modules")
    lora = targeted(GPT2_DEFAULT_TARGETS if targets is None else targets, entries, modules)
    if isinstance(lora, str):
        return lora
    if not lora:
        return TABLE.text("detail.adapter.noTarget", targets=repr(config.get("target_modules")))
    wrapped = _wrapped(entries, modules, lora)
    if isinstance(wrapped, str):
        return wrapped
    params: dict[str, Shape] = {}
    lora_names: dict[str, str] = {}
    bias = bool(config.get("lora_bias"))  # PEFT tests it for truth, unvalidated (observed: "x" adds the bias)
    for name, module in modules.items():
        full = PEFT_PREFIX + name
        if name in lora:
            params |= {f"{full}.base_layer.{p}": s for p, s in module.params.items()}
            own = {f"{full}.{p}": s for p, s in _lora_params(module, rank, bias).items()}
            params |= own
            lora_names |= {_saved_name(p): p for p in own}
        elif name in wrapped:
            for part in (f"modules_to_save.{ADAPTER_NAME}", "original_module"):
                params |= {f"{full}.{part}.{p}": s for p, s in module.params.items()}
        else:
            params |= {f"{full}.{p}": s for p, s in module.params.items()}
    return PeftModel(params, wrapped, lora_names, modules)


def landing_problem(model: PeftModel, tensors: Mapping[str, Shape]) -> str | None:
    """Why PEFT would not load the saved ``tensors`` (name -> shape) into ``model`` (rules 3-5), or None."""
    landed: dict[str, tuple[str, Shape]] = {name: (name, shape) for name, shape in tensors.items()}
    for module in model.wrapped:
        for param in model.modules[module].params:
            key = f"{PEFT_PREFIX}{module}.{param}"
            if key not in tensors:
                return TABLE.text("detail.adapter.savedModule", name=repr(key), module=PEFT_PREFIX + module)
            landed[f"{PEFT_PREFIX}{module}.modules_to_save.{ADAPTER_NAME}.{param}"] = (key, tensors[key])
            del landed[key]
    targets: dict[str, tuple[str, Shape]] = {}
    for name, (saved, shape) in landed.items():
        target = model.lora_names.get(name, name)
        if target in targets and targets[target][1] != shape:
            return TABLE.text("detail.adapter.sameTarget", first=repr(targets[target][0]), second=repr(saved),
                              target=target)
        targets[target] = (saved, shape)
    for target, expected in model.params.items():
        if target in targets and tuple(targets[target][1]) != expected:
            saved, shape = targets[target]
            return TABLE.text("detail.adapter.tensorShape", name=repr(saved), shape=list(shape), target=target,
                              expected=list(expected))
    return None
