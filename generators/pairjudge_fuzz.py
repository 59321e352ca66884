"""Differential fuzz of ``pairjudge verify`` against the real pairjudge 0.3.0 loader (on demand, not CI).

Generates mutation recipes (:mod:`generators.pairjudge_mutations` ops) of every kind issue 13 lists
from the three recorded bundles, applies each to a fresh copy, asks the reference at both layers
(``read_manifest`` and ``PairwiseJudge.from_pretrained(..., device="cpu", local_files_only=True)``)
through :mod:`generators.pairjudge_reference` running in the reference's own environment, and
writes the recipes with the reference's verdicts to ``golden/recorded/pairjudge/fuzz-<set>.json``.
``tests/pairjudge/test_pairjudge_fuzz.py`` replays them against the kit without torch.

    python -m generators.pairjudge_fuzz --python /work/venvs/pairjudge-ref/bin/python \\
        --set tuning --seed 1301 [--per-kind 3] [--pairs 40]
    python -m generators.pairjudge_fuzz ... --set heldout --seed 7919

The ``tuning`` set is what the kit was fixed against; the ``heldout`` set (another seed, so other
values and pairs) is recorded the same way and only measured. A request that takes longer than
``--timeout`` seconds is recorded as a timeout (the worker is restarted).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from contract.core.stagedfile import write_atomic
from generators.pairjudge_mutations import apply_ops

ROOT = Path(__file__).resolve().parents[1]
RECORDED = ROOT / "golden" / "recorded" / "pairjudge"
BUNDLES = RECORDED / "bundles"
FULL = ("full-run/merged", "lora-run/merged")
ADAPTER = ("lora-run/adapter",)
ALL = FULL + ADAPTER
LAYERS = ("read_manifest", "from_pretrained")
RECIPE_VERSION = 1
# tuning, tuning-b, ..., heldout, heldout-b, ...; probes-a, ...: recipes written by hand (--recipes)
SET_NAME = re.compile(r"(tuning|heldout|probes)(-[a-z])?")
TIMEOUT = "timeout-or-crash"

Ops = list[dict[str, Any]]
Rng = random.Random
REHASH: dict[str, Any] = {"op": "rehash"}


def _set(path: str, value: Any, file: str = "pairjudge.json") -> dict[str, Any]:
    return {"op": "set", "file": file, "path": path, "value": value}


def _delete(path: str, file: str = "pairjudge.json") -> dict[str, Any]:
    return {"op": "delete", "file": file, "path": path}


def _side(file: str, path: str, value: Any) -> Ops:
    return [_set(path, value, file), REHASH]


def _side_delete(file: str, path: str) -> Ops:
    return [_delete(path, file), REHASH]


def _pick(rng: Rng, values: list[Any]) -> Any:
    return values[rng.randrange(len(values))]


def _wrong_types(rng: Rng) -> Any:
    return _pick(rng, [None, [], "x", 1, 2.5, True, {}])


# -- kinds: each returns ops for ``bundle`` (a recorded bundle name), or None if not applicable -----


def k_manifest_fields(rng: Rng, bundle: str) -> Ops | None:
    """Cause 1: manifest fields the loader reads (source, inference, model_config, training.config)."""
    choice = rng.randrange(9)
    if choice == 0:
        return [_delete("/source")]
    if choice == 1:
        return [_set("/source", _pick(rng, [None, [], "x", 3, {"architecture": "gpt2"}]))]
    if choice == 2:
        return [_delete("/inference")] if rng.random() < 0.5 else [_set("/inference", _wrong_types(rng))]
    if choice == 3:
        return [_set("/inference/dtype", _pick(rng, ["bfloat16", "float16", "x", None, 1, "auto"]))]
    if choice == 4:
        return [_delete("/model_config")] if rng.random() < 0.3 else [_set("/model_config", _wrong_types(rng))]
    if choice == 5:
        return [_set("/training/config", _wrong_types(rng))]
    if choice == 6:
        return [_delete("/training/config")]
    if choice == 7:
        return [_set("/source/architecture", _pick(rng, ["qwen2", "llama", None, 3]))]
    return [_delete(_pick(rng, ["/source/model_id", "/source/model_revision", "/dependencies", "/author"]))]


def k_adapter_model_config(rng: Rng, bundle: str) -> Ops | None:
    """Cause 2: model_config entries applied to the base config (adapters), or ignored (full)."""
    key, value = _pick(
        rng,
        [
            ("pad_token_id", _pick(rng, [0, 2, 5, None, 1.0, "1"])),
            ("use_cache", _pick(rng, [True, None, "x"])),
            ("attn_logit_softcapping", _pick(rng, [1.0, None, 30])),
            ("num_labels", _pick(rng, [2, 3, 4])),
            ("id2label", {"0": "a_wins", "1": "b_wins", "2": "tie"}),
            ("label2id", {"tie": 2, "a_wins": 0, "b_wins": 1}),
            ("n_embd", 32),
            ("vocab_size", _pick(rng, [4, 8, 9])),
            ("eos_token_id", _pick(rng, [0, 5])),
            ("bos_token_id", 5),
        ],
    )
    return [_set(f"/model_config/{key}", value)]


def k_packer_construction(rng: Rng, bundle: str) -> Ops | None:
    """Cause 3: the packer the judge builds: max_length against the fixed overhead, encodable strings."""
    choice = rng.randrange(6)
    if choice == 0:
        return [_set("/packer/max_length", rng.randint(1, 6))]
    if choice == 1:
        words = " ".join(_pick(rng, ["q", "a", "good", "zz", "[PAD]", "!", "judge"]) for _ in range(rng.randint(1, 12)))
        return [_set("/packer/final_instruction", words), _set("/packer/max_length", rng.randint(2, 14))]
    if choice == 2:
        return [
            _set(f"/packer/{_pick(rng, ['ellipsis', 'final_instruction'])}", _pick(rng, ["\ud800", "x\udfff", "é", ""]))
        ]
    if choice == 3:
        field = _pick(rng, ["prompt_prefix", "response_a_prefix", "round_header"])
        text = "{text}\ud83d" if field != "round_header" else "\udc00{round}"
        return [_set(f"/packer/{field}", text)]
    if choice == 4:
        return [
            _set("/packer/add_bos", rng.random() < 0.5),
            _set("/packer/add_eos", rng.random() < 0.5),
            _set("/packer/max_length", rng.randint(2, 5)),
        ]
    return [_set("/packer/final_instruction", "\t \n"), _set("/packer/max_length", rng.randint(1, 3))]


def k_templates(rng: Rng, bundle: str) -> Ops | None:
    """Cause 4: format templates with widths, precisions and conversions."""
    digits = _pick(rng, [1, 3, 5, 7, 11, 19, 25])
    number = str(rng.randint(10 ** (digits - 1), 10**digits - 1))
    field, argument = _pick(
        rng,
        [
            ("prompt_prefix", "text"),
            ("response_b_prefix", "text"),
            ("round_header", "round"),
            ("first_round_header", "round"),
        ],
    )
    spec = _pick(
        rng,
        [
            f":{number}",
            f":.{number}",
            f":.{number}f",
            f":>{number}",
            f":{number}d",
            "!r",
            "!a:^9",
            ":,",
            ":x",
            ":s",
            ".real",
            "[0]",
        ],
    )
    template = "{" + argument + spec + "}"
    if argument == "text":
        template = "{text}" if spec in (".real", "[0]") and rng.random() < 0.2 else template
    return [_set(f"/packer/{field}", "x " + template)]


GPT2_ALIASES = {
    "hidden_size": "n_embd",
    "num_hidden_layers": "n_layer",
    "max_position_embeddings": "n_positions",
    "num_attention_heads": "n_head",
}


def k_config_semantics(rng: Rng, bundle: str) -> Ops | None:
    """Cause 5: config.json as Transformers reads it (model_type, defaults, aliases, types)."""
    if bundle not in FULL:
        return _base_config(rng)
    return _config_edit(rng, "config.json")


def _config_edit(rng: Rng, file: str) -> Ops:
    choice = rng.randrange(9)
    if choice == 0:
        # not llama/qwen2/gpt_neo: their default sizes make the reference build a billion-parameter
        # model, which does not finish within the timeout (observed), so it gives no verdict
        return _side(file, "/model_type", _pick(rng, ["bert", "gpt2-bogus", "GPT2", "", None, 1, "openai-gpt"]))
    if choice == 1:
        return _side_delete(
            file,
            _pick(
                rng,
                [
                    "/model_type",
                    "/vocab_size",
                    "/n_positions",
                    "/n_layer",
                    "/n_embd",
                    "/n_head",
                    "/activation_function",
                    "/n_inner",
                ],
            ),
        )
    if choice == 2:
        alias = _pick(rng, list(GPT2_ALIASES))
        values = {"hidden_size": 16, "num_hidden_layers": 1, "max_position_embeddings": 128, "num_attention_heads": 2}
        value = _pick(rng, [values[alias], values[alias] * 2])
        ops = [_set(f"/{alias}", value, file)]
        if rng.random() < 0.5:
            ops.append(_delete(f"/{GPT2_ALIASES[alias]}", file))
        return [*ops, REHASH]
    if choice == 3:
        return _side(file, "/n_head", _pick(rng, [3, 5, 0, 4, 16]))
    if choice == 4:
        return _side(file, "/activation_function", _pick(rng, ["relu", "gelu", "swish", "bogus", "tanh", None]))
    if choice == 5:
        key = _pick(rng, ["n_embd", "n_layer", "vocab_size", "n_head", "n_positions", "n_inner"])
        base = {"n_embd": 16, "n_layer": 1, "vocab_size": 8, "n_head": 2, "n_positions": 128, "n_inner": 64}[key]
        return _side(file, f"/{key}", _pick(rng, [float(base), True, str(base), -base]))
    if choice == 6:
        key = _pick(rng, ["n_positions", "vocab_size", "n_embd", "n_inner", "n_layer"])
        return _side(file, f"/{key}", _pick(rng, [7, 9, 32, 64, 256, 2]))
    if choice == 7:
        return _side(
            file,
            _pick(rng, ["/layer_norm_epsilon", "/initializer_range", "/attn_pdrop", "/scale_attn_weights"]),
            _pick(rng, ["x", None, -1, [1]]),
        )
    return _side(
        file, _pick(rng, ["/pad_token_id", "/eos_token_id", "/bos_token_id"]), _pick(rng, [0, 2, 5, None, 1.0])
    )


def _base_config(rng: Rng) -> Ops:
    return _config_edit(rng, "base/config.json")


def k_class_mapping(rng: Rng, bundle: str) -> Ops | None:
    """Cause 6: id2label / label2id / num_labels in config.json."""
    file = "config.json" if bundle in FULL else "base/config.json"
    choice = rng.randrange(7)
    if choice == 0:
        return _side_delete(file, _pick(rng, ["/label2id", "/id2label"]))
    if choice == 1:
        return _side(file, "/num_labels", _pick(rng, [2, 3, 4, 5]))
    if choice == 2:
        return _side(file, "/id2label", {"0": "tie", "1": "a_wins", "2": "b_wins", "3": "extra"})
    if choice == 3:
        return _side(file, "/id2label", {"00": "tie", "1": "a_wins", " 2": "b_wins"})
    if choice == 4:
        return _side(
            file,
            "/label2id",
            _pick(
                rng,
                [
                    {"tie": "0", "a_wins": "1", "b_wins": "2"},
                    {"tie": 0, "a_wins": 1, "b_wins": 2, "x": 3},
                    {"a_wins": 0, "b_wins": 1, "tie": 2},
                ],
            ),
        )
    if choice == 5:
        return (
            _side(file, "/num_labels", 3)
            if file.startswith("base/")
            else [_delete("/id2label", file), _delete("/label2id", file), _set("/num_labels", 3, file), REHASH]
        )
    return _side(file, "/id2label", {"0": "a_wins", "1": "b_wins", "2": "tie"})


def k_tokenizer_config(rng: Rng, bundle: str) -> Ops | None:
    """Cause 7: tokenizer_config.json / special_tokens_map.json."""
    file = "tokenizer_config.json"
    choice = rng.randrange(8)
    if choice == 0:
        return _side_delete(
            file, _pick(rng, ["/tokenizer_class", "/backend", "/pad_token", "/eos_token", "/model_max_length"])
        )
    if choice == 1:
        return _side(
            file,
            "/tokenizer_class",
            _pick(
                rng,
                [
                    "GPT2Tokenizer",
                    "GPT2TokenizerFast",
                    "PreTrainedTokenizerFast",
                    "BogusTokenizer",
                    "LlamaTokenizerFast",
                    "Qwen2TokenizerFast",
                ],
            ),
        )
    if choice == 2:
        token = _pick(rng, ["[EOS]", "[UNK]", "[PAD]", "q"])
        role = _pick(rng, ["pad_token", "eos_token", "bos_token"])
        text = json.dumps({role: token})
        return [{"op": "write_text", "file": "special_tokens_map.json", "text": text}]
    if choice == 3:
        return _side(file, "/padding_side", _pick(rng, ["left", "middle", 1, None, "RIGHT"]))
    if choice == 4:
        role = _pick(rng, ["pad_token", "eos_token", "bos_token", "unk_token"])
        token: dict[str, Any] = {"content": _pick(rng, ["[PAD]", "[EOS]"])}
        if rng.random() < 0.5:
            token["__type"] = "AddedToken"
        return _side(file, f"/{role}", token)
    if choice == 5:
        return _side(
            file,
            _pick(rng, ["/pad_token", "/bos_token", "/eos_token"]),
            _pick(rng, ["[EOS]", "[PAD]", "q", "zz", None]),
        )
    if choice == 6:
        return _side(
            file,
            _pick(rng, ["/truncation_side", "/model_max_length", "/add_bos_token", "/clean_up_tokenization_spaces"]),
            _pick(rng, ["left", "bogus", 10, True]),
        )
    return _side(file, "/extra_special_tokens", _pick(rng, [["[EOS]"], {"x": "[EOS]"}, "zz"]))


def k_token_ids(rng: Rng, bundle: str) -> Ops | None:
    """Cause 8: token ids in tokenizer.json (added_tokens against model.vocab)."""
    file = "tokenizer.json"
    index = _pick(rng, [0, 1, 2])
    token = ["[UNK]", "[PAD]", "[EOS]"][index]
    choice = rng.randrange(5)
    if choice == 0:
        return _side(file, f"/added_tokens/{index}/id", _pick(rng, [5, 7, 9, 3]))
    if choice == 1:
        return _side(file, f"/model/vocab/{token}", _pick(rng, [6, 8, 3]))
    if choice == 2:
        return _side_delete(file, f"/added_tokens/{index}")
    if choice == 3:
        return _side_delete(file, f"/model/vocab/{token}")
    return _side(file, f"/added_tokens/{index}/special", False)


def k_tokenizer_json(rng: Rng, bundle: str) -> Ops | None:
    """Cause 9: tokenizer.json the tokenizers library cannot read, or a vocab.json instead."""
    file = "tokenizer.json"
    choice = rng.randrange(9)
    if choice == 0:
        return _side(file, f"/{_pick(rng, ['bogus', 'extra', 'Version'])}", _pick(rng, [None, 1, "x"]))
    if choice == 1:
        return [
            {
                "op": "set",
                "file": file,
                "path": _pick(rng, ["/added_tokens/0/id", "/padding", "/model/vocab/q"]),
                "value_json": _pick(rng, ["NaN", "Infinity", "1e999"]),
            },
            REHASH,
        ]
    if choice == 2:
        return _side(file, "/version", _pick(rng, ["2.0", "1", 1, "1.0.0", None]))
    if choice == 3:
        return _side(
            file, _pick(rng, ["/model/vocab/\ud800", "/added_tokens/1/content"]), _pick(rng, [9, "[P\udcadD]"])
        )
    if choice == 4:
        return _side_delete(
            file, _pick(rng, ["/model/unk_token", "/model/vocab", "/model/type", "/model", "/added_tokens"])
        )
    if choice == 5:
        return (
            [{"op": "rename_file", "file": file, "to": "vocab.json"}, REHASH]
            if rng.random() < 0.5
            else [{"op": "remove_file", "file": file}, REHASH]
        )
    if choice == 6:
        return _side(
            file,
            _pick(rng, ["/pre_tokenizer/type", "/model/type", "/normalizer", "/decoder"]),
            _pick(rng, ["Bogus", "BPE", "ByteLevel", {"type": "Lowercase"}, {"type": "Nope"}, None]),
        )
    if choice == 7:
        return _side(
            file,
            _pick(rng, ["/truncation", "/padding"]),
            _pick(rng, [{"max_length": 4}, {"direction": "Left"}, [], "x"]),
        )
    return _side(file, "/model/unk_token", _pick(rng, ["zz", "[PAD]", None, 3]))


def k_base(rng: Rng, bundle: str) -> Ops | None:
    """Cause 10: the embedded base/ of an adapter: weights against its config.json and the adapter."""
    if bundle not in ADAPTER:
        return None
    choice = rng.randrange(4)
    if choice == 0:
        return _base_config(rng)
    names = [
        "transformer.wte.weight",
        "transformer.wpe.weight",
        "transformer.h.0.attn.c_attn.weight",
        "transformer.h.0.mlp.c_fc.bias",
        "transformer.ln_f.weight",
    ]
    name = _pick(rng, names)
    if choice == 1:
        return [{"op": "drop_tensors", "file": "base/model.safetensors", "names": [name]}, REHASH]
    if choice == 2:
        return [
            {
                "op": "edit_tensors",
                "file": "base/model.safetensors",
                "edits": [{"name": name, "shape": _pick(rng, [[8, 32], [4], [16, 16]])}],
            },
            REHASH,
        ]
    return [
        {
            "op": "edit_tensors",
            "file": "base/model.safetensors",
            "edits": [
                {
                    "add": _pick(rng, ["score.weight", "extra.weight", "transformer.h.1.ln_1.weight"]),
                    "shape": _pick(rng, [[3, 16], [2, 16], [16]]),
                    "dtype": "F32",
                }
            ],
        },
        REHASH,
    ]


ADAPTER_TENSORS = (
    "base_model.model.transformer.h.0.attn.c_attn.lora_A.weight",
    "base_model.model.transformer.h.0.attn.c_attn.lora_B.weight",
    "base_model.model.score.weight",
)


def k_adapter(rng: Rng, bundle: str) -> Ops | None:
    """Cause 11: adapter_config.json fields and adapter weights against them."""
    if bundle not in ADAPTER:
        return None
    file = "adapter_config.json"
    choice = rng.randrange(7)
    if choice == 0:
        return _side(file, "/r", _pick(rng, [1, 3, 4, 0, "2", 2.0]))
    if choice == 1:
        return _side(file, "/peft_type", _pick(rng, ["LOHA", "BOGUS", None, "lora", "PREFIX_TUNING"]))
    if choice == 2:
        return _side(
            file, "/target_modules", _pick(rng, [["c_proj"], ["bogus"], [], "c_attn", "all-linear", ["c_attn", "c_fc"]])
        )
    if choice == 3:
        return _side(
            file,
            _pick(
                rng,
                [
                    "/modules_to_save",
                    "/task_type",
                    "/lora_alpha",
                    "/fan_in_fan_out",
                    "/use_dora",
                    "/bias",
                    "/base_model_name_or_path",
                    "/layers_to_transform",
                ],
            ),
            _pick(rng, [None, [], "CAUSAL_LM", "bogus", 0, True, "all", [0]]),
        )
    name = _pick(rng, ADAPTER_TENSORS)
    if choice == 4:
        return [
            {
                "op": "edit_tensors",
                "file": "adapter_model.safetensors",
                "edits": [{"name": name, "shape": _pick(rng, [[3, 16], [2, 16], [48, 3], [16, 2]])}],
            },
            REHASH,
        ]
    if choice == 5:
        return [
            {
                "op": "edit_tensors",
                "file": "adapter_model.safetensors",
                "edits": [
                    {
                        "name": name,
                        "rename": _pick(
                            rng,
                            [
                                "base_model.model.classifier.weight",
                                "base_model.model.score.modules_to_save.default.weight",
                                "base_model.model.transformer.score.weight",
                                "score.weight",
                                "base_model.model.transformer.h.0.attn.c_proj.lora_A.weight",
                                "base_model.model.bogus.weight",
                            ],
                        ),
                    }
                ],
            },
            REHASH,
        ]
    return [{"op": "drop_tensors", "file": "adapter_model.safetensors", "names": [name]}, REHASH]


def k_hub_base(rng: Rng, bundle: str) -> Ops | None:
    """Cause 12: an adapter whose base is on the Hub (no embedded base/), loaded offline."""
    if bundle not in ADAPTER:
        return None
    ops: Ops = [{"op": "remove_tree", "file": "base"}]
    ops.append(_set("/source/model_id", _pick(rng, ["gpt2", "sshleifer/tiny-gpt2", "embedded-local-base", "base"])))
    ops.append(_set("/source/model_revision", _pick(rng, ["0" * 40, "a" * 40, "main", None])))
    return ops


def k_optimizer_steps(rng: Rng, bundle: str) -> Ops | None:
    """Wrong refusal: optimizer_steps as numbers Python's ``<= 0`` lets through."""
    return [
        {
            "op": "set",
            "path": "/training/optimizer_steps",
            "value_json": _pick(rng, ["NaN", "Infinity", "1e999", "0.5", "-Infinity", "true", "1e-300"]),
        }
    ]


def k_deep_json(rng: Rng, bundle: str) -> Ops | None:
    """Wrong refusal: JSON nesting deeper than 512 levels, which Python's json parses."""
    depth = rng.randint(500, 980)
    target = _pick(
        rng,
        [
            ("pairjudge.json", "/training/history"),
            ("pairjudge.json", "/source/train_data_provenance"),
            ("config.json", "/task_specific_params"),
            ("tokenizer_config.json", "/deep"),
        ],
    )
    file, path = target
    if file == "config.json" and bundle not in FULL:
        file = "base/config.json"
    ops: Ops = [{"op": "set", "file": file, "path": path, "nest": depth}]
    return ops if file == "pairjudge.json" else [*ops, REHASH]


def k_tokenizer_metadata(rng: Rng, bundle: str) -> Ops | None:
    """Wrong refusal: manifest tokenizer keys the loader compares with tokenizer attributes."""
    key, value = _pick(
        rng,
        [
            ("model_max_length", _pick(rng, [1000000000000000019884624838656, 2048])),
            ("vocab_size", _pick(rng, [8, 5, 3])),
            ("is_fast", _pick(rng, [True, False])),
            ("unk_token_id", _pick(rng, [0, 3])),
            ("truncation_side", _pick(rng, ["right", "left"])),
            ("pad_token", _pick(rng, ["[PAD]", "[EOS]"])),
            ("eos_token", "[EOS]"),
            ("name_or_path", "x"),
            ("bogus_attribute", 1),
            ("padding_side", _pick(rng, ["left", "right"])),
            ("bos_token_id", _pick(rng, [None, 2])),
        ],
    )
    return [_set(f"/tokenizer/{key}", value)]


def k_weight_names(rng: Rng, bundle: str) -> Ops | None:
    """Wrong refusal: checkpoint names Transformers maps (no ``transformer.`` prefix, head inside it)."""
    if bundle not in FULL:
        return None
    choice = rng.randrange(4)
    file = "model.safetensors"
    if choice == 0:
        names = ["transformer.wte.weight", "transformer.wpe.weight", "transformer.ln_f.weight", "transformer.ln_f.bias"]
        block = "transformer.h.0."
        parts = [
            "ln_1.weight",
            "ln_1.bias",
            "attn.c_attn.weight",
            "attn.c_attn.bias",
            "attn.c_proj.weight",
            "attn.c_proj.bias",
            "ln_2.weight",
            "ln_2.bias",
            "mlp.c_fc.weight",
            "mlp.c_fc.bias",
            "mlp.c_proj.weight",
            "mlp.c_proj.bias",
        ]
        names += [block + p for p in parts]
        return [
            {
                "op": "edit_tensors",
                "file": file,
                "edits": [{"name": n, "rename": n.removeprefix("transformer.")} for n in names],
            },
            REHASH,
        ]
    if choice == 1:
        return [
            {
                "op": "edit_tensors",
                "file": file,
                "edits": [
                    {
                        "name": "score.weight",
                        "rename": _pick(
                            rng, ["transformer.score.weight", "classifier.weight", "score.bias", "model.score.weight"]
                        ),
                    }
                ],
            },
            REHASH,
        ]
    if choice == 2:
        return [
            {
                "op": "edit_tensors",
                "file": file,
                "edits": [
                    {
                        "add": _pick(rng, ["lm_head.weight", "transformer.h.0.attn.bias", "score.bias", "extra"]),
                        "shape": _pick(rng, [[8, 16], [3], [1]]),
                        "dtype": "F32",
                    }
                ],
            },
            REHASH,
        ]
    return [
        {
            "op": "edit_tensors",
            "file": file,
            "edits": [{"name": "score.weight", "shape": _pick(rng, [[2, 16], [4, 16], [3, 8]])}],
        },
        REHASH,
    ]


def k_big_config(rng: Rng, bundle: str) -> Ops | None:
    """Wrong refusal: a side JSON file over 64 MiB (padded with spaces)."""
    file = "config.json" if bundle in FULL else "adapter_config.json"
    return [{"op": "pad_file_to", "file": file, "size": 64 * 1024 * 1024 + rng.randint(1, 4096)}, REHASH]


def k_manifest_basics(rng: Rng, bundle: str) -> Ops | None:
    """The recorded kinds again with fresh values: packer fields, label order, receipt, digests."""
    choice = rng.randrange(6)
    if choice == 0:
        return [
            _set(
                f"/packer/{_pick(rng, ['max_length', 'min_tail_budget', 'ratios', 'packing_format', 'add_bos'])}",
                _pick(rng, [0, -1, 10.0, [0.5, 0.5, 0.5], [0.1, 0.1, 0.1], "competition_v1", "x", None, True]),
            )
        ]
    if choice == 1:
        return [
            _set(
                "/label_order",
                _pick(
                    rng,
                    [
                        ["a_wins", "b_wins", "tie"],
                        ["tie", "tie", "a_wins"],
                        "abc",
                        {"tie": 1, "a_wins": 2, "b_wins": 3},
                    ],
                ),
            )
        ]
    if choice == 2:
        return [_set("/training/head_changed", _pick(rng, [False, 1, "true", None]))]
    if choice == 3:
        return [_set("/format_version", _pick(rng, [1.0, True, 2, "1", 0]))]
    if choice == 4:
        return [
            {
                "op": "write_text",
                "file": _pick(rng, ["config.json", "tokenizer.json", "README.md", "tokenizer_config.json"]),
                "text": "{}",
            }
        ]
    return [_set("/files/extra.safetensors", "0" * 64)]


# Values a config.json field is set to, field by field: each is a type or a name some field of
# Transformers' config classes cannot take (a dtype name it does not know, a string for a number).
CONFIG_VALUES: tuple[Any, ...] = (None, "x", "", -1, 0, 1, 2.5, True, False, [], [1], {}, {"a": 1},
                                  "float33", "bfloat16", "float16", "int8", "auto", "torch.float32", "fp32")
CONFIG_EXTRA_FIELDS = ("torch_dtype", "dtype", "problem_type", "num_labels", "output_hidden_states",
                       "return_dict", "tie_word_embeddings", "is_decoder", "chunk_size_feed_forward",
                       "architectures", "transformers_version", "id2label", "label2id", "attn_implementation",
                       "rope_scaling", "quantization_config", "use_return_dict", "pruned_heads",
                       "is_encoder_decoder")
RECORDED_CONFIG_FIELDS = ("activation_function", "add_cross_attention", "architectures", "attn_pdrop", "bos_token_id",
                          "dtype", "embd_pdrop", "eos_token_id", "initializer_range", "layer_norm_epsilon",
                          "model_type", "n_embd", "n_head", "n_inner", "n_layer", "n_positions", "pad_token_id",
                          "reorder_and_upcast_attn", "resid_pdrop", "scale_attn_by_inverse_layer_idx",
                          "scale_attn_weights", "summary_activation", "summary_first_dropout",
                          "summary_proj_to_labels", "summary_type", "summary_use_proj", "tie_word_embeddings",
                          "transformers_version", "use_cache", "vocab_size")


def k_config_values(rng: Rng, bundle: str) -> Ops | None:
    """config.json values field by field (base/config.json for an adapter): every recorded field
    and the fields Transformers' PretrainedConfig reads, set to a value of another type or domain."""
    file = "config.json" if bundle in FULL else "base/config.json"
    field = _pick(rng, list(RECORDED_CONFIG_FIELDS + CONFIG_EXTRA_FIELDS))
    return _side(file, f"/{field}", _pick(rng, list(CONFIG_VALUES)))


def k_base_layout(rng: Rng, bundle: str) -> Ops | None:
    """Every shape of an embedded base/: sharded weights (index or not, listed or not, the single
    file kept beside), its config or weights gone, extra files, a base/ beside a Hub model id."""
    if bundle not in ADAPTER:
        return None
    choice = rng.randrange(8)
    if choice <= 2:
        op: dict[str, Any] = {"op": "shard", "file": "base/model.safetensors", "parts": _pick(rng, [2, 3, 5]),
                              "interleave": rng.random() < 0.5}
        if choice == 1:
            op[_pick(rng, ["keep", "list"])] = _pick(rng, [True, False])
        if choice == 2:
            op[_pick(rng, ["index", "total_size"])] = _pick(rng, [False, 0, 12])
        return [op, REHASH]
    if choice == 3:
        return [{"op": "remove_file", "file": _pick(rng, ["base/config.json", "base/model.safetensors",
                                                          "base/generation_config.json", "base/tokenizer.json"])},
                REHASH]
    if choice == 4:
        name = _pick(rng, ["base/extra.safetensors", "base/notes.txt", "base/LICENSE", "base/sub.json"])
        return [{"op": "write_text", "file": name, "text": "{}"}, _set(f"/files/{name.replace('/', '~1')}", ""),
                REHASH]
    if choice == 5:
        return [_set("/source/model_id", _pick(rng, ["gpt2", "", None, "embedded-local-base "])), REHASH]
    if choice == 6:
        return [_set("/source/local_base_files", _pick(rng, [{}, None, [], {"config.json": "0" * 64}])), REHASH]
    return [{"op": "rename_file", "file": "base/model.safetensors", "to": "base/pytorch_model.safetensors"},
            REHASH]


# The recorded adapter's tensors as PEFT names them, the model parameters they could land on, and
# the right shape of each (GPT-2 with n_embd 16, vocabulary 8, 128 positions, n_inner 64; LoRA r 2 on c_attn).
_P = "base_model.model."
_BLOCK0 = _P + "transformer.h.0."
SAVED_TENSORS = {_P + "score.weight": [3, 16], _BLOCK0 + "attn.c_attn.lora_A.weight": [2, 16],
                 _BLOCK0 + "attn.c_attn.lora_B.weight": [48, 2]}
RENAMES = {
    _P + "score.weight": ["score.weight", "base_model.score.weight", "model.score.weight",
                          _P + "score.modules_to_save.default.weight", _P + "score.original_module.weight",
                          _P + "classifier.weight", _P + "classification_head.weight", _P + "transformer.score.weight",
                          _P + "score.bias", _P + "Score.weight", _P + "score.weight.default", _P + "score"],
    _BLOCK0 + "attn.c_attn.lora_A.weight": [
        _BLOCK0 + "attn.c_attn.lora_A.default.weight", _BLOCK0 + "attn.c_attn.lora_a.weight",
        _BLOCK0 + "attn.c_attn.lora_A.bias", _BLOCK0 + "attn.c_proj.lora_A.weight",
        "transformer.h.0.attn.c_attn.lora_A.weight", _BLOCK0 + "attn.c_attn.lora_A",
        _P + "transformer.h.1.attn.c_attn.lora_A.weight"],
    _BLOCK0 + "attn.c_attn.lora_B.weight": [
        _BLOCK0 + "attn.c_attn.lora_B.default.weight", _BLOCK0 + "attn.c_attn.lora_B.bias",
        _BLOCK0 + "attn.c_attn.base_layer.weight", _BLOCK0 + "attn.c_attn.weight", _BLOCK0 + "mlp.c_fc.lora_B.weight",
        _P + "score.weight"],
}
# parameters of the loaded PEFT model (and a few near misses) with their right shapes
MODEL_PARAMS = {_P + "transformer.wte.weight": [8, 16], _P + "transformer.wpe.weight": [128, 16],
                _P + "transformer.ln_f.weight": [16], _P + "transformer.ln_f.bias": [16],
                _BLOCK0 + "ln_1.weight": [16], _BLOCK0 + "attn.c_attn.base_layer.weight": [16, 48],
                _BLOCK0 + "attn.c_attn.base_layer.bias": [48], _BLOCK0 + "attn.c_proj.weight": [16, 16],
                _BLOCK0 + "mlp.c_fc.weight": [16, 64], _BLOCK0 + "mlp.c_proj.bias": [16],
                _P + "score.modules_to_save.default.weight": [3, 16], _P + "score.original_module.weight": [3, 16],
                _BLOCK0 + "attn.c_attn.lora_A.default.weight": [2, 16],
                _BLOCK0 + "attn.c_attn.lora_B.default.weight": [48, 2], _BLOCK0 + "attn.c_attn.lora_B.bias": [48],
                _P + "score.bias": [3], _P + "classifier.weight": [3, 16], _BLOCK0 + "attn.c_attn.weight": [16, 48]}
MODULES_TO_SAVE: tuple[list[str] | None, ...] = (
                   ["ln_f"], ["f"], ["core"], ["drop"], ["wte"], ["attn"], ["h"], ["c_attn"], [""], ["ln_."], ["("],
                   ["score"], [], None, ["classifier"], ["lora_A"], ["default"], ["model"], ["c_proj"],
                   ["mlp.c_proj"], ["h.0.ln_1"], ["act"], ["transformer.wpe"], ["module"])
# a module's own parameters, for modules_to_save entries that wrap one (added with their right shapes)
WRAPPED_PARAMS = {"ln_f": ["transformer.ln_f.weight", "transformer.ln_f.bias"],
                  "f": ["transformer.ln_f.weight", "transformer.ln_f.bias"],
                  "wte": ["transformer.wte.weight"], "transformer.wpe": ["transformer.wpe.weight"],
                  "c_proj": ["transformer.h.0.attn.c_proj.weight", "transformer.h.0.attn.c_proj.bias",
                             "transformer.h.0.mlp.c_proj.weight", "transformer.h.0.mlp.c_proj.bias"],
                  "mlp.c_proj": ["transformer.h.0.mlp.c_proj.weight", "transformer.h.0.mlp.c_proj.bias"],
                  "h.0.ln_1": ["transformer.h.0.ln_1.weight", "transformer.h.0.ln_1.bias"]}
WRAPPED_SHAPES = {"transformer.ln_f.weight": [16], "transformer.ln_f.bias": [16], "transformer.wte.weight": [8, 16],
                  "transformer.wpe.weight": [128, 16], "transformer.h.0.attn.c_proj.weight": [16, 16],
                  "transformer.h.0.attn.c_proj.bias": [16], "transformer.h.0.mlp.c_proj.weight": [64, 16],
                  "transformer.h.0.mlp.c_proj.bias": [16], "transformer.h.0.ln_1.weight": [16],
                  "transformer.h.0.ln_1.bias": [16]}
TARGET_MODULES = (["wte"], ["ln_f"], ["c_attn", "ln_1"], ["drop"], ["attn"], ["c_attn", "act"], ".*",
                  "transformer\\.h\\.0\\.attn\\.c_attn", "transformer.h.0.attn.c_attn", ".*c_attn", "all-linear",
                  ["c_attn", "c_proj"], ["wpe"], ["score"], ["c_attn", "score"], ["h.0.attn.c_attn"], "(", ["c_fc"])


def _wrong(rng: Rng, shape: list[int]) -> list[int]:
    """``shape`` itself or a near miss (one dimension changed, transposed, a dimension dropped)."""
    choice = rng.randrange(4)
    if choice == 0 or not shape:
        return list(shape)
    if choice == 1:
        index = rng.randrange(len(shape))
        return [d + (1 if i == index else 0) for i, d in enumerate(shape)]
    if choice == 2 and len(shape) == 2:
        return [shape[1], shape[0]]
    return shape[:-1] or [shape[0] + 1]


def _add(name: str, shape: list[int]) -> dict[str, Any]:
    return {"add": name, "shape": shape, "dtype": "F32"}


def k_adapter_names(rng: Rng, bundle: str) -> Ops | None:
    """Head and weight names of an adapter against what PEFT looks up: saved tensors renamed or added
    under every name family (prefix, adapter name, wrapper parts, other head names, base layers) with
    right or wrong shapes; modules_to_save and target_modules naming other modules; lora_bias and
    trainable tokens (which add names PEFT looks up)."""
    if bundle not in ADAPTER:
        return None
    file, config = "adapter_model.safetensors", "adapter_config.json"
    choice = rng.randrange(6)
    if choice == 0:
        name = _pick(rng, list(SAVED_TENSORS))
        return [{"op": "edit_tensors", "file": file, "edits": [{"name": name, "rename": _pick(rng, RENAMES[name])}]},
                REHASH]
    if choice == 1:
        edits = []
        for _ in range(rng.randint(1, 2)):
            name = _pick(rng, list(MODEL_PARAMS))
            edits.append(_add(name, _wrong(rng, MODEL_PARAMS[name])))
        return [{"op": "edit_tensors", "file": file, "edits": edits}, REHASH]
    if choice == 2:
        saved = _pick(rng, list(MODULES_TO_SAVE))
        ops: Ops = [_set("/modules_to_save", saved, config)]
        entry = saved[0] if saved else None
        if entry in WRAPPED_PARAMS and rng.random() < 0.7:
            names = [n for n in WRAPPED_PARAMS[entry] if rng.random() < 0.85]
            edits = [_add(_P + n, _wrong(rng, WRAPPED_SHAPES[n]) if rng.random() < 0.3 else WRAPPED_SHAPES[n])
                     for n in names]
            ops.append({"op": "edit_tensors", "file": file, "edits": edits})
        return [*ops, REHASH]
    if choice == 3:
        targets = _pick(rng, list(TARGET_MODULES))
        ops = [_set("/target_modules", targets, config)]
        if targets in (["wte"], ["wpe"]) and rng.random() < 0.7:
            rows = 8 if targets == ["wte"] else 128
            module = _P + f"transformer.{targets[0]}."
            ops.append({"op": "edit_tensors", "file": file, "edits": [
                _add(module + "lora_embedding_A", _wrong(rng, [2, rows])), _add(module + "lora_embedding_B", [16, 2])]})
        return [*ops, REHASH]
    if choice == 4:
        ops = [_set("/lora_bias", _pick(rng, [True, False, None, "x"]), config)]
        if rng.random() < 0.7:
            ops.append({"op": "edit_tensors", "file": file,
                        "edits": [_add(_BLOCK0 + "attn.c_attn.lora_B.bias", _wrong(rng, [48]))]})
        return [*ops, REHASH]
    ops = [_set("/trainable_token_indices", _pick(rng, [[0], [0, 1], {"wte": [1]}, [], None]), config)]
    if rng.random() < 0.6:
        ops.append({"op": "edit_tensors", "file": file, "edits": [
            _add(_P + "transformer.wte.token_adapter.trainable_tokens_delta", _wrong(rng, [1, 16]))]})
    return [*ops, REHASH]


# GPT-2 sizes and their aliases (config.json), as Transformers reads them: floats (whole or not),
# zero, negative and boolean values, and a width the weights are resized to match.
SIZE_KEYS = {"n_head": 2, "num_attention_heads": 2, "n_embd": 16, "hidden_size": 16, "n_layer": 1,
             "num_hidden_layers": 1, "n_positions": 128, "max_position_embeddings": 128, "vocab_size": 8,
             "n_inner": 64}


def _gpt2_shapes(embd: int) -> dict[str, list[int]]:
    """The recorded full bundles' tensors for width ``embd`` (one layer, n_inner unset: 4 * embd)."""
    block = "transformer.h.0."
    return {"transformer.wte.weight": [8, embd], "transformer.wpe.weight": [128, embd],
            "transformer.ln_f.weight": [embd], "transformer.ln_f.bias": [embd], "score.weight": [3, embd],
            block + "ln_1.weight": [embd], block + "ln_1.bias": [embd], block + "ln_2.weight": [embd],
            block + "ln_2.bias": [embd], block + "attn.c_attn.weight": [embd, 3 * embd],
            block + "attn.c_attn.bias": [3 * embd], block + "attn.c_proj.weight": [embd, embd],
            block + "attn.c_proj.bias": [embd], block + "mlp.c_fc.weight": [embd, 4 * embd],
            block + "mlp.c_fc.bias": [4 * embd], block + "mlp.c_proj.weight": [4 * embd, embd],
            block + "mlp.c_proj.bias": [embd]}


def k_config_sizes(rng: Rng, bundle: str) -> Ops | None:
    """GPT-2 size fields and aliases: a float (whole or not), 0, negative, a boolean; n_head values
    that divide the width or not; a width (0 included) with every weight resized to it."""
    file = "config.json" if bundle in FULL else "base/config.json"
    choice = rng.randrange(4)
    if choice == 0:
        key = _pick(rng, list(SIZE_KEYS))
        base = SIZE_KEYS[key]
        return _side(file, f"/{key}", _pick(rng, [float(base), base + 0.5, 0, 0.0, -base, True, float(2 * base)]))
    if choice == 1:
        key = _pick(rng, ["n_head", "num_attention_heads"])
        return _side(file, f"/{key}", _pick(rng, [1, 4, 8, 16, 32, -1, -16, 3, 1.0, 4.0, -2.0, 16.0]))
    if choice == 2 and bundle in FULL:
        embd = _pick(rng, [0, 8, 32, 2])
        heads = _pick(rng, [1, 2, embd or 1])
        edits = [{"name": name, "shape": shape} for name, shape in _gpt2_shapes(embd).items()]
        return [_set("/n_embd", embd, file), _set("/n_head", heads, file),
                {"op": "edit_tensors", "file": "model.safetensors", "edits": edits}, REHASH]
    return _side(file, f"/{_pick(rng, ['n_embd', 'hidden_size'])}", _pick(rng, [0, 0.0, -16, 16.0, 8, 32]))


# The recorded models' tensors (GPT-2, one layer): the full bundles have these and the head
# score.weight; the embedded base/ has these alone; the adapter saves a head and two LoRA tensors.
_LAYER_TENSORS = ("attn.c_attn.bias", "attn.c_attn.weight", "attn.c_proj.bias", "attn.c_proj.weight", "ln_1.bias",
                  "ln_1.weight", "ln_2.bias", "ln_2.weight", "mlp.c_fc.bias", "mlp.c_fc.weight", "mlp.c_proj.bias",
                  "mlp.c_proj.weight")
GPT2_TENSORS = (*(f"transformer.h.0.{name}" for name in _LAYER_TENSORS), "transformer.ln_f.bias",
                "transformer.ln_f.weight", "transformer.wpe.weight", "transformer.wte.weight")


def _weight_subset(rng: Rng, names: list[str]) -> list[str]:
    """Which tensors to take away: all of them, all but one, one, a random part, a whole group."""
    choice = rng.randrange(5)
    if choice == 0:
        return list(names)
    if choice == 1:
        keep = _pick(rng, names)
        return [n for n in names if n != keep]
    if choice == 2:
        return [_pick(rng, names)]
    if choice == 3:
        return sorted(rng.sample(names, rng.randint(2, len(names) - 1)))
    group = _pick(rng, ["transformer.h.0.", "transformer.w", "transformer.ln_f", "score", "attn", "mlp"])
    return [n for n in names if group in n] or list(names)


def _sharded_weight_set(rng: Rng, file: str, gone: list[str]) -> Ops:
    """``file`` split into shards, then the index or the shards lose ``gone`` (or the index maps nothing)."""
    parts = _pick(rng, [2, 3])
    folder = file[: -len("model.safetensors")]
    index = folder + "model.safetensors.index.json"
    shards = [f"{folder}model-{n + 1:05d}-of-{parts:05d}.safetensors" for n in range(parts)]
    ops: Ops = [{"op": "shard", "file": file, "parts": parts, "interleave": rng.random() < 0.5}]
    choice = rng.randrange(5)
    if choice == 0:  # the index maps no tensor to any shard (the shards stay, listed)
        return [*ops, _set("/weight_map", {}, index), REHASH]
    if choice == 1:  # the index maps nothing and the shards are gone too
        removed: Ops = [{"op": "remove_file", "file": shard} for shard in shards]
        unlisted: Ops = [_delete(f"/files/{shard.replace('/', '~1')}") for shard in shards]
        return [*ops, _set("/weight_map", {}, index), *removed, *unlisted, REHASH]
    drops: Ops = [{"op": "drop_tensors", "file": shard, "names": gone} for shard in shards]
    unmapped: Ops = [_delete(f"/weight_map/{name}", index) for name in gone]
    if choice == 2:  # the tensors and their index entries both gone
        return ops + drops + unmapped + [REHASH]
    if choice == 3:  # the shards lose the tensors, the index still names them
        return ops + drops + [REHASH]
    return ops + unmapped + [REHASH]  # the index forgets tensors the shards still hold


def k_weight_sets(rng: Rng, bundle: str) -> Ops | None:
    """Empty and partial weight sets (issue 32): a full model, an embedded base/ and an adapter's
    tensors with every tensor, or some, taken away; single files and shards (an index mapping
    nothing, shards emptied, an index naming what the shards lack or forgetting what they hold)."""
    if bundle in FULL:
        file, names = "model.safetensors", ["score.weight", *GPT2_TENSORS]
    elif rng.random() < 0.35:
        saved = list(SAVED_TENSORS)
        gone = _pick(rng, [saved, saved[1:], saved[1:2], saved[2:], saved[:1]])
        return [{"op": "drop_tensors", "file": "adapter_model.safetensors", "names": gone}, REHASH]
    else:
        file, names = "base/model.safetensors", list(GPT2_TENSORS)
    gone = _weight_subset(rng, names)
    if rng.random() < 0.45:
        return [{"op": "drop_tensors", "file": file, "names": gone}, REHASH]
    return _sharded_weight_set(rng, file, gone)


KINDS: dict[str, Callable[[Rng, str], Ops | None]] = {
    "manifest_fields": k_manifest_fields,
    "adapter_model_config": k_adapter_model_config,
    "packer_construction": k_packer_construction,
    "templates": k_templates,
    "config_semantics": k_config_semantics,
    "class_mapping": k_class_mapping,
    "tokenizer_config": k_tokenizer_config,
    "token_ids": k_token_ids,
    "tokenizer_json": k_tokenizer_json,
    "base": k_base,
    "adapter": k_adapter,
    "hub_base": k_hub_base,
    "optimizer_steps": k_optimizer_steps,
    "deep_json": k_deep_json,
    "tokenizer_metadata": k_tokenizer_metadata,
    "weight_names": k_weight_names,
    "big_config": k_big_config,
    "manifest_basics": k_manifest_basics,
    "config_values": k_config_values,
    "base_layout": k_base_layout,
    "adapter_names": k_adapter_names,
    "config_sizes": k_config_sizes,
    "weight_sets": k_weight_sets,
}


SINGLE = frozenset({"big_config"})  # one variant per bundle: each writes a 64 MiB file
# one bundle only: three times the variants
ADAPTER_ONLY = frozenset({"base", "adapter", "hub_base", "base_layout", "adapter_names"})


def generate(seed: int, per_kind: int, pairs: int, only: list[str] | None = None) -> list[dict[str, Any]]:
    """Recipes: ``per_kind`` variants of every kind on every bundle it applies to, then ``pairs``
    random pairs of kinds on one bundle. Duplicates (same bundle and ops) are dropped."""
    rng = random.Random(seed)
    cases: list[dict[str, Any]] = []
    seen: set[str] = set()

    def add(bundle: str, kinds: list[str], ops: Ops) -> None:
        key = json.dumps([bundle, ops], sort_keys=True)
        if key in seen or not _applies(bundle, ops):
            return
        seen.add(key)
        cases.append({"id": f"s{seed}-{len(cases):04d}", "bundle": bundle, "kinds": kinds, "ops": ops})

    for name, kind in KINDS.items():
        if only and name not in only:
            continue
        for bundle in ALL:
            for _ in range(1 if name in SINGLE else per_kind * (3 if name in ADAPTER_ONLY else 1)):
                ops = kind(rng, bundle)
                if ops is not None:
                    add(bundle, [name], ops)
    names = [n for n in KINDS if n not in ("big_config", "hub_base") and (not only or n in only)]
    for _ in range(pairs):
        bundle = _pick(rng, list(ALL))
        first, second = rng.sample(names, 2)
        a, b = KINDS[first](rng, bundle), KINDS[second](rng, bundle)
        if a is not None and b is not None:
            # manifest edits before side-file edits' rehash, so both land
            add(bundle, [first, second], [op for op in a + b if op != REHASH] + [REHASH])
    return cases


def _applies(bundle: str, ops: Ops) -> bool:
    """Whether ``ops`` apply to ``bundle`` (an edit may target what the bundle lacks, such as
    ``label2id`` in the backbone's config, or what a pair's first edit removed)."""
    with tempfile.TemporaryDirectory(prefix="pairjudge-fuzz-") as scratch:
        target = Path(scratch) / "bundle"
        shutil.copytree(BUNDLES / bundle, target)
        try:
            apply_ops(target, ops)
        except (KeyError, IndexError, ValueError, TypeError, OSError):
            return False
    return True


class Reference:
    """The reference worker process, restarted after a timeout or a crash."""

    def __init__(self, python: str, timeout: float) -> None:
        self.python, self.timeout = python, timeout
        self.process: subprocess.Popen[str] | None = None
        self.versions: dict[str, str] = {}

    def _start(self) -> subprocess.Popen[str]:
        process = subprocess.Popen(
            [self.python, str(Path(__file__).with_name("pairjudge_reference.py"))],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert process.stdout is not None
        first = process.stdout.readline()
        self.versions = json.loads(first)["versions"]
        return process

    def ask(self, bundle: Path, layer: str) -> dict[str, Any]:
        if self.process is None or self.process.poll() is not None:
            self.process = self._start()
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"bundle": str(bundle), "layer": layer, "kwargs": {}}) + "\n")
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout], [], [], self.timeout)
        line = self.process.stdout.readline() if ready else ""
        if not line:
            self.close()
            return {"ok": False, "exception": TIMEOUT, "message": f"no answer within {self.timeout} s"}
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


def _hand_written(path: Path) -> list[dict[str, Any]]:
    """Recipes from a JSON file: a list of {"id", "bundle", "kinds", "ops"}, each applied to a copy first."""
    cases: list[dict[str, Any]] = json.loads(path.read_text())
    for case in cases:
        if set(case) != {"id", "bundle", "kinds", "ops"} or case["bundle"] not in ALL:
            raise SystemExit(f"{path}: recipe {case.get('id')!r} needs exactly id, bundle (one of {ALL}), kinds, ops")
        if not _applies(case["bundle"], case["ops"]):
            raise SystemExit(f"{path}: recipe {case['id']!r} does not apply to {case['bundle']}")
    return cases


def run(args: argparse.Namespace) -> int:
    if args.recipes is not None:
        cases = _hand_written(args.recipes)
    else:
        cases = generate(args.seed, args.per_kind, args.pairs, args.kinds)
    reference = Reference(args.python, args.timeout)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="pairjudge-fuzz-") as scratch:
        for number, case in enumerate(cases):
            outcomes: dict[str, Any] = {}
            for layer in LAYERS:
                target = Path(scratch) / f"c{number}-{layer}" / "bundle"
                shutil.copytree(BUNDLES / case["bundle"], target)
                apply_ops(target, case["ops"])
                outcomes[layer] = reference.ask(target, layer)
                shutil.rmtree(target.parent)
            case["reference"] = outcomes
            if number % 25 == 0:
                print(f"{number}/{len(cases)} {time.monotonic() - started:.0f}s", file=sys.stderr, flush=True)
    reference.close()
    # a timeout or a crash is not a verdict: such recipes are listed apart, never compared
    unanswered = [c for c in cases if any(o.get("exception") == TIMEOUT for o in c["reference"].values())]
    cases = [c for c in cases if c not in unanswered]
    document = {
        "note": "Recipes (generators/pairjudge_mutations.py ops on a copy of bundles/<bundle>) and the verdicts of the "
        "published pairjudge 0.3.0 at both layers, recorded by generators/pairjudge_fuzz.py. Never edit a "
        "recorded verdict; re-record instead.",
        "set": args.set,
        "seed": None if args.recipes is not None else args.seed,
        "per_kind": args.per_kind,
        "pairs": args.pairs,
        "kinds": args.kinds,
        "recipe_version": RECIPE_VERSION,
        "recorded_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "platform": {"device": "cpu", "HF_HUB_OFFLINE": "1", "local_files_only": True},
        "versions": reference.versions,
        "cases": cases,
        "unanswered": unanswered,
    }
    out = RECORDED / f"fuzz-{args.set}.json" if args.out is None else args.out
    write_atomic(out, json.dumps(document, indent=1, ensure_ascii=True) + "\n")
    print(f"wrote {out} ({len(cases)} cases) in {time.monotonic() - started:.0f}s", file=sys.stderr)
    return 0


def _set_name(text: str) -> str:
    if SET_NAME.fullmatch(text) is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not tuning[-x], heldout[-x] or probes[-x]")
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", required=True, help="the Python of the environment holding pairjudge==0.3.0")
    parser.add_argument("--set", required=True, type=_set_name, help="tuning[-x], heldout[-x] or probes[-x]")
    parser.add_argument("--seed", type=int, help="required unless --recipes")
    parser.add_argument("--recipes", type=Path, help="record these hand-written recipes (a JSON list) instead")
    parser.add_argument("--per-kind", type=int, default=3)
    parser.add_argument("--pairs", type=int, default=40)
    parser.add_argument("--kinds", nargs="+", choices=sorted(KINDS), help="only these kinds (and pairs of them)")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--out", type=Path, help="write here instead of golden/recorded/pairjudge/fuzz-<set>.json")
    parser.add_argument("--list", action="store_true", help="print the recipes and exit (no reference needed)")
    args = parser.parse_args(argv)
    if (args.seed is None) == (args.recipes is None):
        parser.error("give --seed or --recipes (one of them)")
    if args.list:
        listed = _hand_written(args.recipes) if args.recipes else generate(args.seed, args.per_kind, args.pairs,
                                                                             args.kinds)
        print(json.dumps(listed, indent=1))
        return 0
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
