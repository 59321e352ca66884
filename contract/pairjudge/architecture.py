"""The tensors a sequence-classification model of a known architecture must have, from config.json.

The reference loads a full bundle into ``AutoModelForSequenceClassification`` and refuses any
missing or size-mismatched weight. Without Transformers the kit can say the same only where the
config determines every tensor: :data:`ARCHITECTURES` maps a ``model_type`` to a function giving
tensor name -> shape (``None`` when the config lacks a needed size). Other architectures get the
head-only check of :mod:`contract.pairjudge.bundle`. A checkpoint saved without the base-model
prefix (``transformer.`` for GPT-2) is matched with the prefix added, as Transformers does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

CLASSES = 3
HEAD_SEGMENTS = frozenset({"score", "classifier", "classification_head"})

Shapes = dict[str, tuple[int, ...]]


@dataclass(frozen=True)
class Architecture:
    prefix: str
    tensors: Callable[[Mapping[str, Any]], Shapes | None]


def _size(config: Mapping[str, Any], key: str) -> int | None:
    value = config.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _gpt2(config: Mapping[str, Any]) -> Shapes | None:
    embd, layers = _size(config, "n_embd"), _size(config, "n_layer")
    positions, vocab = _size(config, "n_positions"), _size(config, "vocab_size")
    if embd is None or layers is None or positions is None or vocab is None:
        return None
    inner = 4 * embd if config.get("n_inner") is None else _size(config, "n_inner")
    if inner is None or layers > 10_000:
        return None
    shapes: Shapes = {
        "transformer.wte.weight": (vocab, embd),
        "transformer.wpe.weight": (positions, embd),
        "transformer.ln_f.weight": (embd,),
        "transformer.ln_f.bias": (embd,),
        "score.weight": (CLASSES, embd),
    }
    for layer in range(layers):
        block = f"transformer.h.{layer}"
        shapes |= {
            f"{block}.ln_1.weight": (embd,),
            f"{block}.ln_1.bias": (embd,),
            f"{block}.attn.c_attn.weight": (embd, 3 * embd),
            f"{block}.attn.c_attn.bias": (3 * embd,),
            f"{block}.attn.c_proj.weight": (embd, embd),
            f"{block}.attn.c_proj.bias": (embd,),
            f"{block}.ln_2.weight": (embd,),
            f"{block}.ln_2.bias": (embd,),
            f"{block}.mlp.c_fc.weight": (embd, inner),
            f"{block}.mlp.c_fc.bias": (inner,),
            f"{block}.mlp.c_proj.weight": (inner, embd),
            f"{block}.mlp.c_proj.bias": (embd,),
        }
    return shapes


ARCHITECTURES: dict[str, Architecture] = {
    "gpt2": Architecture("transformer.", _gpt2),
}


def is_head(name: str) -> bool:
    """A classification-head tensor name: a dot-separated segment score/classifier/classification_head."""
    return not HEAD_SEGMENTS.isdisjoint(name.split("."))


@dataclass(frozen=True)
class LoadingInfo:
    """What Transformers' loading info would list: the sets the reference's message prints."""

    missing: frozenset[str]
    unexpected: frozenset[str]
    mismatched: frozenset[str]

    @property
    def complete(self) -> bool:
        return not self.missing and not self.mismatched

    def render(self) -> str:
        """The reference's message detail, e.g. ``{'missing_keys': {'score.weight'}, ...}``."""

        def as_set(names: frozenset[str]) -> str:
            return "{" + ", ".join(repr(n) for n in sorted(names)) + "}" if names else "set()"

        return (
            f"{{'missing_keys': {as_set(self.missing)}, 'unexpected_keys': {as_set(self.unexpected)}, "
            f"'mismatched_keys': {as_set(self.mismatched)}, 'error_msgs': []}}"
        )


def compare(expected: Shapes, found: Mapping[str, tuple[int, ...]], prefix: str) -> LoadingInfo:
    """Match checkpoint tensors ``found`` against ``expected`` (adding ``prefix`` if it is absent)."""
    if prefix and not any(name.startswith(prefix) for name in found):
        found = {(name if is_head(name) else prefix + name): shape for name, shape in found.items()}
    missing = frozenset(name for name in expected if name not in found)
    unexpected = frozenset(name for name in found if name not in expected)
    mismatched = frozenset(
        name for name, shape in expected.items() if name in found and tuple(found[name]) != shape
    )
    return LoadingInfo(missing, unexpected, mismatched)
