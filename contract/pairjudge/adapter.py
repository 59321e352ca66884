"""A LoRA adapter bundle against its embedded base, as PEFT would load it, from files only.

The reference loads the embedded ``base/`` as a 3-class sequence classifier (a missing tensor is
newly initialised, a size-mismatched one fails), then ``PeftModel.from_pretrained`` reads
``adapter_config.json``, finds the modules ``target_modules`` names, and loads the adapter tensors
(a size mismatch fails; a missing LoRA tensor does not). The kit knows GPT-2 backbones and LoRA;
anything else is refused as undecided. Functions return a problem sentence or None; never raise.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from contract.core.checktable import PAIRJUDGE_TABLE as TABLE
from contract.pairjudge import architecture

PEFT_PREFIX = "base_model.model."
BIASES = ("none", "all", "lora_only")
# GPT-2's adaptable modules per block: name -> (in_features, out_features) from its sizes.
_GPT2_MODULES = ("attn.c_attn", "attn.c_proj", "mlp.c_fc", "mlp.c_proj")
HEAD_MODULE = "score"


def base_problem(config: Mapping[str, Any], shapes: Mapping[str, tuple[int, ...]]) -> str | None:
    """Why ``base/`` cannot be loaded as a 3-class classifier (missing tensors are fine)."""
    model_type = config.get("model_type")
    known = architecture.ARCHITECTURES.get(model_type) if isinstance(model_type, str) else None
    if known is None:
        return TABLE.text("detail.adapter.baseArchitecture", modelType=repr(model_type))
    # the base's config is read as any config (its id2label keys through int(), observed failing for
    # 'a') before the loader sets the judge's classes
    classes = architecture.id2label({"id2label": config.get("id2label")})
    if isinstance(classes, str):
        return "base/" + classes
    base = architecture.without_dtype(config)
    expected = known.tensors({**base, "num_labels": architecture.CLASSES, "id2label": None})
    if isinstance(expected, str):
        return "base/" + expected
    info = architecture.compare(expected, shapes, known.prefix)
    if info.mismatched:
        return TABLE.text("detail.adapter.baseWeights", detail=info.render())
    return None


def _modules(sizes: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
    embd = sizes["n_embd"]
    inner = 4 * embd if sizes["n_inner"] is None else sizes["n_inner"]
    dims = {"attn.c_attn": (embd, 3 * embd), "attn.c_proj": (embd, embd), "mlp.c_fc": (embd, inner),
            "mlp.c_proj": (inner, embd)}
    return {f"transformer.h.{i}.{m}": dims[m] for i in range(sizes["n_layer"]) for m in _GPT2_MODULES}


def _targeted(targets: Any, modules: Mapping[str, tuple[int, int]]) -> list[str] | str:
    if targets == "all-linear":
        return list(modules)
    if isinstance(targets, str):
        try:
            pattern = re.compile(targets)
        except re.error as exc:
            return TABLE.text("detail.adapter.targetsPattern", targets=repr(targets), problem=exc)
        return [name for name in modules if pattern.fullmatch(name)]
    if isinstance(targets, list) and all(isinstance(t, str) for t in targets):
        return [name for name in modules if any(name == t or name.endswith("." + t) for t in targets)]
    return TABLE.text("detail.adapter.targetsType", targets=repr(targets))


def _config_problem(config: Mapping[str, Any]) -> str | None:
    if config.get("peft_type") != "LORA":
        return TABLE.text("detail.adapter.peftType", value=repr(config.get("peft_type")))
    if config.get("task_type") != "SEQ_CLS":
        return TABLE.text("detail.adapter.taskType", value=repr(config.get("task_type")))
    rank = config.get("r")
    if not isinstance(rank, int) or isinstance(rank, bool) or rank <= 0:
        return TABLE.text("detail.adapter.rank", value=repr(rank))
    if config.get("bias", "none") not in BIASES:
        return TABLE.text("detail.adapter.bias", value=repr(config.get("bias")), known=", ".join(BIASES))
    saved = config.get("modules_to_save")
    if saved is not None and not (isinstance(saved, list) and all(isinstance(m, str) for m in saved)):
        return TABLE.text("detail.adapter.modulesToSave", value=repr(saved))
    for key in ("rank_pattern", "alpha_pattern"):
        if config.get(key) not in (None, {}):
            return TABLE.text("detail.adapter.patterns", key=key)
    for key in ("use_dora", "layer_replication", "layers_to_transform", "exclude_modules", "target_parameters"):
        if config.get(key) not in (None, False, [], {}):
            return TABLE.text("detail.adapter.variant", key=key, value=repr(config.get(key)))
    if not isinstance(config.get("lora_alpha"), int | float) or isinstance(config.get("lora_alpha"), bool):
        return TABLE.text("detail.adapter.alpha", value=repr(config.get("lora_alpha")))
    return None


def override_problem(base_config: Mapping[str, Any], model_config: Mapping[str, Any]) -> str | None:
    """The loader sets each ``model_config`` entry on the base's typed config (observed: a string
    ``use_cache`` or a float ``pad_token_id`` fails there)."""
    problem = architecture.type_problem(architecture.without_dtype({**base_config, **model_config}))
    if problem is None:
        return None
    return TABLE.text("detail.adapter.override", problem=problem.removeprefix("config.json "))


def lora_problem(
    config: Mapping[str, Any], base_config: Mapping[str, Any], tensors: Mapping[str, tuple[int, ...]]
) -> str | None:
    """Why PEFT would not load the adapter ``tensors`` with ``config`` onto the base, or None."""
    problem = _config_problem(config)
    if problem is not None:
        return TABLE.text("detail.adapter.config", problem=problem)
    sizes = architecture.gpt2_sizes(architecture.without_dtype(base_config))
    if isinstance(sizes, str):
        return "base/" + sizes
    modules = _modules(sizes)
    targeted = _targeted(config.get("target_modules"), modules)
    if isinstance(targeted, str):
        return TABLE.text("detail.adapter.config", problem=targeted)
    if not targeted:
        return TABLE.text("detail.adapter.noTarget", targets=repr(config.get("target_modules")))
    rank = config["r"]
    for name, shape in tensors.items():
        if architecture.is_head(name):
            head = _head_problem(name, shape, sizes["n_embd"])
            if head is not None:
                return head
            continue
        for module in targeted:
            in_features, out_features = modules[module]
            expected = {f"{PEFT_PREFIX}{module}.lora_A.weight": (rank, in_features),
                        f"{PEFT_PREFIX}{module}.lora_B.weight": (out_features, rank)}
            if name in expected and tuple(shape) != expected[name]:
                return TABLE.text("detail.adapter.loraShape", name=name, shape=list(shape),
                                  expected=list(expected[name]), rank=rank)
    return None


def _head_problem(name: str, shape: tuple[int, ...], embd: int) -> str | None:
    if name == f"{PEFT_PREFIX}{HEAD_MODULE}.modules_to_save.default.weight":
        return None  # PEFT maps the saved head name onto this one; a tensor saved under it is not used
    if name != f"{PEFT_PREFIX}{HEAD_MODULE}.weight":
        return TABLE.text("detail.adapter.headName", name=repr(name), module=HEAD_MODULE)
    if tuple(shape) != (architecture.CLASSES, embd):
        return TABLE.text("detail.adapter.headShape", name=name, shape=list(shape), classes=architecture.CLASSES,
                          width=embd)
    return None
