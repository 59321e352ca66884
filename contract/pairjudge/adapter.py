"""A LoRA adapter bundle against its embedded base, as PEFT would load it, from files only.

The reference loads the embedded ``base/`` as a 3-class sequence classifier (a missing tensor is
newly initialised, a size-mismatched one fails), then ``PeftModel.from_pretrained`` reads
``adapter_config.json``, finds the modules ``target_modules`` names, and loads the adapter tensors
(a size mismatch fails; a missing LoRA tensor does not). The kit knows GPT-2 backbones and LoRA;
anything else is refused as undecided. Functions return a problem sentence or None; never raise.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from contract.core.checktable import PAIRJUDGE_TABLE as TABLE
from contract.pairjudge import architecture, peftmodel

BIASES = ("none", "all", "lora_only")
# LoraConfig's defaults (PEFT 0.21.2), taken when adapter_config.json leaves the key out (observed: a
# missing lora_alpha loads; a missing r builds rank-8 layers, a size mismatch against rank-2 tensors).
DEFAULT_RANK = 8
DEFAULT_ALPHA = 8


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


def untrained_problem(
    config: Mapping[str, Any], shapes: Mapping[str, tuple[int, ...]], adapter_tensors: Mapping[str, Any]
) -> str | None:
    """Why the judge would run on weights the reference newly initialises, or None: ``base/`` without
    a tensor its config names (none at all included), or an adapter file without any LoRA tensor. The
    reference loads both (a missing base tensor is initialised at random, a missing LoRA tensor left at
    initialisation; observed 2026-12-04, fuzz-tuning-h): the kit refuses them deliberately, since the
    judge would not be the one trained. Called once :func:`base_problem` has passed."""
    known = architecture.ARCHITECTURES[str(config.get("model_type"))]
    base = architecture.without_dtype(config)
    expected = known.tensors({**base, "num_labels": architecture.CLASSES, "id2label": None})
    if isinstance(expected, str):
        return "base/" + expected
    missing = sorted(n for n in architecture.compare(expected, shapes, known.prefix).missing
                     if not architecture.is_head(n))
    if not shapes:
        return TABLE.text("detail.untrained.baseEmpty")
    if missing:
        listed = ", ".join(repr(n) for n in missing[:3]) + (f" and {len(missing) - 3} more" if len(missing) > 3 else "")
        return TABLE.text("detail.untrained.baseMissing", count=len(missing), names=listed)
    if not any(part.startswith("lora_") for name in adapter_tensors for part in name.split(".")):
        return TABLE.text("detail.untrained.noLora")
    return None


def _config_problem(config: Mapping[str, Any]) -> str | None:
    if config.get("peft_type") != "LORA":
        return TABLE.text("detail.adapter.peftType", value=repr(config.get("peft_type")))
    if config.get("task_type") != "SEQ_CLS":
        return TABLE.text("detail.adapter.taskType", value=repr(config.get("task_type")))
    rank = config.get("r", DEFAULT_RANK)
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
    # PEFT wraps the input embeddings for trainable tokens whenever the key is not null, [] included (observed)
    if config.get("trainable_token_indices") is not None:
        return TABLE.text("detail.adapter.variant", key="trainable_token_indices",
                          value=repr(config.get("trainable_token_indices")))
    alpha = config.get("lora_alpha", DEFAULT_ALPHA)
    if not isinstance(alpha, int | float) or isinstance(alpha, bool):
        return TABLE.text("detail.adapter.alpha", value=repr(alpha))
    return None


def override_problem(model_config: Mapping[str, Any]) -> str | None:
    """Why setting the manifest's ``model_config`` entries on the built model's config fails, or None.

    The loader sets each entry with ``setattr`` once the base model is built (observed 2026-12-02,
    ``fuzz-probes-d``): GPT2Config's typed fields check the type only (a negative size or a dropout of
    2.5 is set, the model is already built), a read-only property fails, ``num_labels`` must be an
    integer or a boolean (its setter builds ``range(num_labels)``), ``model_type`` must be hashable,
    ``dtype``/``torch_dtype`` no list, ``rope_scaling`` false-like or an object, ``quantization_config``
    null or an object; ``id2label`` and ``label2id`` are replaced from ``label_order`` afterwards, and
    any other key is set as it is."""
    for key, value in model_config.items():
        if key in ("id2label", "label2id"):
            continue
        if key in architecture.GPT2_FIELD_TYPES and not architecture.field_accepts(key, value):
            problem = TABLE.text("detail.config.fieldType", key=key, value=repr(value)[:60])
        elif key in architecture.READ_ONLY:
            problem = TABLE.text("detail.config.readOnly", key=key)
        elif key == "num_labels" and not isinstance(value, int):
            problem = TABLE.text("detail.config.numLabels", value=repr(value)[:60])
        elif key in architecture.DTYPE_KEYS and isinstance(value, list):
            problem = TABLE.text("detail.config.dtypeList", key=key, value=repr(value)[:60])
        elif ((key == "model_type" and isinstance(value, list | dict))
              or (key == "rope_scaling" and value and not isinstance(value, dict))
              or (key == "quantization_config" and value is not None and not isinstance(value, dict))):
            problem = TABLE.text("detail.config.fieldType", key=key, value=repr(value)[:60])
        else:
            continue
        return TABLE.text("detail.adapter.override", problem=problem.removeprefix("config.json "))
    return None


def lora_problem(
    config: Mapping[str, Any], base_config: Mapping[str, Any], tensors: Mapping[str, tuple[int, ...]]
) -> str | None:
    """Why PEFT would not load the adapter ``tensors`` with ``config`` onto the base, or None: the
    PEFT model built as :mod:`contract.pairjudge.peftmodel` describes, then where each saved tensor
    lands (a module to save looked up by its name, shapes against the model's parameters)."""
    problem = _config_problem(config)
    if problem is not None:
        return TABLE.text("detail.adapter.config", problem=problem)
    base = architecture.without_dtype(base_config)
    sizes = architecture.gpt2_sizes(base)
    if isinstance(sizes, str):
        return "base/" + sizes
    table = architecture.ARCHITECTURES["gpt2"].tensors({**base, "num_labels": architecture.CLASSES, "id2label": None})
    if isinstance(table, str):
        return "base/" + table
    model = peftmodel.build(config, peftmodel.gpt2_modules(table, sizes["n_layer"]), config.get("r", DEFAULT_RANK))
    if isinstance(model, str):
        return TABLE.text("detail.adapter.config", problem=model)
    return peftmodel.landing_problem(model, tensors)
