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
        return f"base/config.json model_type {model_type!r} is not an architecture the kit knows (undecided)"
    expected = known.tensors({**config, "num_labels": architecture.CLASSES, "id2label": None})
    if isinstance(expected, str):
        return "base/" + expected
    info = architecture.compare(expected, shapes, known.prefix)
    if info.mismatched:
        return f"base/ weights do not fit base/config.json: {info.render()}"
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
            return f"target_modules {targets!r} is not a valid regular expression ({exc})"
        return [name for name in modules if pattern.fullmatch(name)]
    if isinstance(targets, list) and all(isinstance(t, str) for t in targets):
        return [name for name in modules if any(name == t or name.endswith("." + t) for t in targets)]
    return f"target_modules is {targets!r}, not a list of module names or a regular expression"


def _config_problem(config: Mapping[str, Any]) -> str | None:
    if config.get("peft_type") != "LORA":
        return f"peft_type {config.get('peft_type')!r} is not LORA (the kit checks LoRA adapters only: undecided)"
    if config.get("task_type") != "SEQ_CLS":
        return f"task_type {config.get('task_type')!r} is not SEQ_CLS (undecided)"
    rank = config.get("r")
    if not isinstance(rank, int) or isinstance(rank, bool) or rank <= 0:
        return f"r is {rank!r}, not a positive integer"
    if config.get("bias", "none") not in BIASES:
        return f"bias is {config.get('bias')!r}, not one of {', '.join(BIASES)}"
    saved = config.get("modules_to_save")
    if saved is not None and not (isinstance(saved, list) and all(isinstance(m, str) for m in saved)):
        return f"modules_to_save is {saved!r}, not null or a list of module names"
    for key in ("rank_pattern", "alpha_pattern"):
        if config.get(key) not in (None, {}):
            return f"{key} is set (undecided: the kit does not apply per-module ranks)"
    for key in ("use_dora", "layer_replication", "layers_to_transform", "exclude_modules", "target_parameters"):
        if config.get(key) not in (None, False, [], {}):
            return f"{key} is {config.get(key)!r} (undecided: the kit checks plain LoRA only)"
    if not isinstance(config.get("lora_alpha"), int | float) or isinstance(config.get("lora_alpha"), bool):
        return f"lora_alpha is {config.get('lora_alpha')!r}, not a number"
    return None


def override_problem(base_config: Mapping[str, Any], model_config: Mapping[str, Any]) -> str | None:
    """The loader sets each ``model_config`` entry on the base's typed config (observed: a string
    ``use_cache`` or a float ``pad_token_id`` fails there)."""
    problem = architecture.type_problem({**base_config, **model_config})
    return None if problem is None else "pairjudge.json model_config: " + problem.removeprefix("config.json ")


def lora_problem(
    config: Mapping[str, Any], base_config: Mapping[str, Any], tensors: Mapping[str, tuple[int, ...]]
) -> str | None:
    """Why PEFT would not load the adapter ``tensors`` with ``config`` onto the base, or None."""
    problem = _config_problem(config)
    if problem is not None:
        return f"adapter_config.json {problem}"
    sizes = architecture.gpt2_sizes(base_config)
    if isinstance(sizes, str):
        return "base/" + sizes
    modules = _modules(sizes)
    targeted = _targeted(config.get("target_modules"), modules)
    if isinstance(targeted, str):
        return f"adapter_config.json {targeted}"
    if not targeted:
        return f"adapter_config.json target_modules {config.get('target_modules')!r} names no module of the base model"
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
                return f"adapter tensor {name} has shape {list(shape)}, not {list(expected[name])} (r={rank})"
    return None


def _head_problem(name: str, shape: tuple[int, ...], embd: int) -> str | None:
    if name == f"{PEFT_PREFIX}{HEAD_MODULE}.modules_to_save.default.weight":
        return None  # PEFT maps the saved head name onto this one; a tensor saved under it is not used
    if name != f"{PEFT_PREFIX}{HEAD_MODULE}.weight":
        return (
            f"adapter head tensor {name!r} is not the base model's {HEAD_MODULE} head as PEFT saves it "
            "(undecided: PEFT ignores some such names and fails on others, observed)"
        )
    if tuple(shape) != (architecture.CLASSES, embd):
        return f"adapter head tensor {name} has shape {list(shape)}, not [{architecture.CLASSES}, {embd}]"
    return None
