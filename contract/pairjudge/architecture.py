"""The tensors a sequence-classification model of a known architecture must have, from config.json.

The reference loads a full bundle into ``AutoModelForSequenceClassification`` and refuses any
missing or size-mismatched weight. Without Transformers the kit can say the same only where the
config determines every tensor: :data:`ARCHITECTURES` maps a ``model_type`` to a function giving
tensor name -> shape (or why the model cannot be built from the config: Transformers' defaults fill absent sizes,
aliases such as ``hidden_size`` win, sizes must be positive integers). Other architectures get the
head-only check of :mod:`contract.pairjudge.bundle`. A checkpoint saved without the base-model
prefix (``transformer.`` for GPT-2) is matched with the prefix added, as Transformers does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from contract.core.checktable import PAIRJUDGE_TABLE as TABLE

CLASSES = 3
HEAD_SEGMENTS = frozenset({"score", "classifier", "classification_head"})

Shapes = dict[str, tuple[int, ...]]


@dataclass(frozen=True)
class Architecture:
    prefix: str
    tensors: Callable[[Mapping[str, Any]], Shapes | str]


# GPT2Config's defaults (Transformers), used when config.json leaves a size out, and its aliases
# (an alias is applied after the real key, so it wins).
GPT2_DEFAULTS: dict[str, Any] = {
    "vocab_size": 50257, "n_positions": 1024, "n_embd": 768, "n_layer": 12, "n_head": 12, "n_inner": None,
    "activation_function": "gelu_new",
}
GPT2_ALIASES = {"hidden_size": "n_embd", "max_position_embeddings": "n_positions",
                "num_attention_heads": "n_head", "num_hidden_layers": "n_layer"}
# Transformers' ACT2FN names.
ACTIVATIONS = frozenset({
    "gelu", "gelu_10", "gelu_fast", "gelu_new", "gelu_python", "gelu_pytorch_tanh", "gelu_accurate",
    "laplace", "leaky_relu", "linear", "mish", "quick_gelu", "relu", "relu2", "relu6", "sigmoid", "silu",
    "swish", "tanh", "prelu",
})
MAX_LAYERS = 10_000
MAX_CLASSES = 1_000_000
# GPT2Config's typed fields: Transformers 5 validates them when it reads config.json (observed:
# StrictDataclassFieldValidationError for a float n_layer, a string n_head, a null
# scale_attn_weights, a list attn_pdrop, a boolean n_layer, an integer initializer_range: a bool is
# not an int there, and a field typed float takes no int). The types are GPT2Config's and
# PreTrainedConfig's annotations in Transformers 5.24.
_INT, _NUMBER, _FLOAT, _BOOL, _STR, _NONE = (int,), (int, float), (float,), (bool,), (str,), (type(None),)
_LIST, _DICT = (list,), (dict,)
GPT2_FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "vocab_size": _INT, "n_positions": _INT, "n_embd": _INT, "n_layer": _INT, "n_head": _INT,
    "n_inner": _INT + _NONE, "activation_function": _STR, "resid_pdrop": _NUMBER, "embd_pdrop": _NUMBER,
    "attn_pdrop": _NUMBER, "layer_norm_epsilon": _FLOAT, "initializer_range": _FLOAT, "summary_type": _STR,
    "summary_use_proj": _BOOL, "summary_activation": _STR + _NONE, "summary_proj_to_labels": _BOOL,
    "summary_first_dropout": _NUMBER, "scale_attn_weights": _BOOL, "use_cache": _BOOL,
    "bos_token_id": _INT + _NONE, "eos_token_id": _INT + _LIST + _NONE, "pad_token_id": _INT + _NONE,
    "scale_attn_by_inverse_layer_idx": _BOOL, "reorder_and_upcast_attn": _BOOL,
    "add_cross_attention": _BOOL, "tie_word_embeddings": _BOOL,
    # PreTrainedConfig's own fields are not validated (observed 2026-12-01: a string return_dict, a list
    # output_hidden_states, a boolean transformers_version; 2026-12-02, fuzz-probes-b: any architectures,
    # chunk_size_feed_forward, is_encoder_decoder or label2id, a label2id other than the judge's failing
    # later, M7; dtype: loader_problem); id2label is read with .items() (anything else fails)
    "id2label": _DICT + _NONE,
}
# dtype names the reference was observed to load a full bundle with ('auto' fails:
# "module 'torch' has no attribute 'auto'"); others are undecided.
LOADABLE_DTYPES = ("float32", "float16", "bfloat16", "float64", "int8")
ATTENTION_IMPLEMENTATIONS = ("eager", "sdpa")
READ_ONLY = ("use_return_dict",)  # a property without a setter: setting it fails (AttributeError, observed)
DTYPE_KEYS = ("dtype", "torch_dtype")
_DROPOUTS = ("resid_pdrop", "embd_pdrop", "attn_pdrop")


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def field_accepts(key: str, value: Any) -> bool:
    """Whether GPT2Config's typed field ``key`` takes ``value`` (a bool is no int there)."""
    types = GPT2_FIELD_TYPES[key]
    return isinstance(value, types) and not (isinstance(value, bool) and bool not in types)


def type_problem(config: Mapping[str, Any]) -> str | None:
    """Why Transformers 5's typed GPT2Config would reject ``config``'s values, or None."""
    for key in GPT2_FIELD_TYPES:
        if key in config and not field_accepts(key, config[key]):
            return TABLE.text("detail.config.fieldType", key=key, value=repr(config[key]))
    # problem_type is not validated at load (observed: 'int8' and 'fp32' load)
    for key in _DROPOUTS:
        value = config.get(key, 0.1)
        if value < 0 or value > 1:  # as torch tests it (NaN passes)
            return TABLE.text("detail.config.dropout", key=key, value=repr(value))
    return None


def without_dtype(config: Mapping[str, Any]) -> dict[str, Any]:
    """An embedded base's config as the adapter loader uses it: it picks the dtype itself (observed:
    base/config.json dtype {'a': 1} loads)."""
    return {key: value for key, value in config.items() if key not in DTYPE_KEYS}


def loader_problem(config: Mapping[str, Any]) -> str | None:
    """Config keys that make the loader fail whatever the architecture, or that the kit cannot
    decide: a read-only property set, an attention implementation or quantization, a dtype name."""
    for key in READ_ONLY:
        if key in config:
            return TABLE.text("detail.config.readOnly", key=key)
    attention = config.get("attn_implementation")
    if isinstance(attention, dict):  # per sub-config; "" names the model's own (observed: {} and {'a': 1} load)
        attention = attention.get("")
    if attention is not None and not isinstance(attention, str):
        return TABLE.text("detail.config.fieldType", key="attn_implementation", value=repr(attention))
    if attention is not None and attention not in ATTENTION_IMPLEMENTATIONS:
        return TABLE.text("detail.config.undecidedValue", key="attn_implementation", value=repr(attention),
                          known=", ".join(ATTENTION_IMPLEMENTATIONS))
    rope = config.get("rope_scaling")  # read only when truthy (observed: False loads, 'auto' fails)
    if rope and not isinstance(rope, dict):
        return TABLE.text("detail.config.fieldType", key="rope_scaling", value=repr(rope)[:60])
    if rope:
        return TABLE.text("detail.config.undecidedValue", key="rope_scaling", value=repr(rope)[:60], known="none")
    if config.get("quantization_config") is not None:
        return TABLE.text("detail.config.undecidedValue", key="quantization_config",
                          value=repr(config["quantization_config"])[:60], known="none")
    # torch_dtype counts only when dtype is null; a string names a torch attribute, a list fails
    # (IndexError), any other value loads (observed 2026-12-02: numbers, booleans, objects)
    key = "dtype" if config.get("dtype") is not None else "torch_dtype"
    value = config.get(key)
    if isinstance(value, str) and value not in LOADABLE_DTYPES:
        return TABLE.text("detail.config.undecidedValue", key=key, value=repr(value),
                          known=", ".join(LOADABLE_DTYPES))
    if isinstance(value, list):
        return TABLE.text("detail.config.dtypeList", key=key, value=repr(value)[:60])
    return None


def id2label(config: Mapping[str, Any]) -> dict[int, Any] | str:
    """The config's class mapping as Transformers reads it (int keys), or why it cannot be read.

    Without ``id2label`` there are ``num_labels`` (default 2) classes ``LABEL_i``; a ``num_labels``
    that disagrees with ``id2label`` wins and the classes become ``LABEL_i`` (observed: the head is
    then sized by ``num_labels`` and the weights mismatch).
    """
    raw = config.get("id2label")
    count = config.get("num_labels")
    # a num_labels key is set through a property that builds range(num_labels): null fails (observed)
    if ("num_labels" in config and count is None) or (count is not None and (not _int(count)
                                                                            or not 0 <= count <= MAX_CLASSES)):
        return TABLE.text("detail.config.numLabels", value=repr(count))
    if raw is None:
        return {i: f"LABEL_{i}" for i in range(2 if count is None else count)}
    if not isinstance(raw, dict):
        return TABLE.text("detail.config.id2labelType")
    out: dict[int, Any] = {}
    for key, value in raw.items():
        try:
            out[int(key)] = value
        except ValueError:
            return TABLE.text("detail.config.id2labelKey", key=repr(key))
    if count is not None and count != len(out):
        return {i: f"LABEL_{i}" for i in range(count)}
    return out


def gpt2_sizes(config: Mapping[str, Any]) -> dict[str, Any] | str:
    """The GPT-2 sizes Transformers would build from ``config`` (defaults, then aliases), or why
    the model cannot be built from it."""
    problem = type_problem(config) or loader_problem(config)
    if problem is not None:
        return problem
    sizes = {key: config.get(key, default) for key, default in GPT2_DEFAULTS.items()}
    for alias, key in GPT2_ALIASES.items():
        if alias in config:
            sizes[key] = config[alias]
    # torch refuses negative sizes; a negative layer count builds no layer and a negative head count
    # only has to divide n_embd (observed: the reference loads n_head -2 for n_embd 16). The real keys
    # are typed above; an alias is not validated, its value is used as it is (observed 2026-12-02):
    # num_hidden_layers true or -1 loads (range() takes them), 1.0 fails; num_attention_heads 2.0, 0.5,
    # -2.0 or true loads (n_embd % n_head and n_embd // n_head are all the model computes with it), "2"
    # fails; a float or boolean hidden_size or max_position_embeddings fails (torch sizes are integers).
    for key in ("vocab_size", "n_positions", "n_embd"):
        if not _int(sizes[key]) or sizes[key] < 0:
            return TABLE.text("detail.config.size", key=key, value=repr(sizes[key]))
    if not isinstance(sizes["n_layer"], int):
        return TABLE.text("detail.config.integer", key="n_layer", value=repr(sizes["n_layer"]))
    if not isinstance(sizes["n_head"], int | float):
        return TABLE.text("detail.config.number", key="n_head", value=repr(sizes["n_head"]))
    if sizes["n_head"] == 0:
        return TABLE.text("detail.config.zeroHeads")
    if sizes["n_inner"] is not None and (not _int(sizes["n_inner"]) or sizes["n_inner"] < 0):
        return TABLE.text("detail.config.inner", value=repr(sizes["n_inner"]))
    sizes["n_layer"] = max(sizes["n_layer"], 0)
    if sizes["n_layer"] > MAX_LAYERS:
        return TABLE.text("detail.config.layers", value=sizes["n_layer"], limit=MAX_LAYERS)
    if sizes["n_embd"] % sizes["n_head"]:
        return TABLE.text("detail.config.heads", width=sizes["n_embd"], heads=sizes["n_head"])
    # each attention layer scales by head_dim ** -0.5 (observed: n_embd 0 fails with ZeroDivisionError
    # unless scale_attn_weights is false or there is no layer)
    if sizes["n_layer"] >= 1 and config.get("scale_attn_weights", True) and sizes["n_embd"] // sizes["n_head"] == 0:
        return TABLE.text("detail.config.zeroHeadWidth", width=sizes["n_embd"], heads=sizes["n_head"])
    if sizes["activation_function"] not in ACTIVATIONS:
        return TABLE.text("detail.config.activation", value=repr(sizes["activation_function"]))
    return sizes


def _gpt2(config: Mapping[str, Any]) -> Shapes | str:
    sizes = gpt2_sizes(config)
    if isinstance(sizes, str):
        return sizes
    classes = id2label(config)
    if isinstance(classes, str):
        return classes
    embd, layers, positions, vocab = sizes["n_embd"], sizes["n_layer"], sizes["n_positions"], sizes["vocab_size"]
    inner = 4 * embd if sizes["n_inner"] is None else sizes["n_inner"]
    shapes: Shapes = {
        "transformer.wte.weight": (vocab, embd),
        "transformer.wpe.weight": (positions, embd),
        "transformer.ln_f.weight": (embd,),
        "transformer.ln_f.bias": (embd,),
        "score.weight": (len(classes), embd),
    }
    cross = config.get("add_cross_attention") is True  # a cross-attention block after attn (observed missing)
    for layer in range(layers):
        block = f"transformer.h.{layer}"
        if cross:
            shapes |= {
                f"{block}.crossattention.c_attn.weight": (embd, 2 * embd),
                f"{block}.crossattention.c_attn.bias": (2 * embd,),
                f"{block}.crossattention.q_attn.weight": (embd, embd),
                f"{block}.crossattention.q_attn.bias": (embd,),
                f"{block}.crossattention.c_proj.weight": (embd, embd),
                f"{block}.crossattention.c_proj.bias": (embd,),
                f"{block}.ln_cross_attn.weight": (embd,),
                f"{block}.ln_cross_attn.bias": (embd,),
            }
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

        return TABLE.text("detail.loading.info", missing=as_set(self.missing), unexpected=as_set(self.unexpected),
                          mismatched=as_set(self.mismatched))


def compare(expected: Shapes, found: Mapping[str, tuple[int, ...]], prefix: str) -> LoadingInfo:
    """Match checkpoint tensors ``found`` against ``expected`` (adding ``prefix`` if it is absent)."""
    if prefix and not any(name.startswith(prefix) for name in found):
        found = {(name if is_head(name) else prefix + name): shape for name, shape in found.items()}
    # a head saved under the base prefix (``transformer.score.weight``) loads as the head (observed)
    found = {
        (name[len(prefix):] if prefix and name.startswith(prefix) and name[len(prefix):] in expected
         and name[len(prefix):] not in found else name): shape
        for name, shape in found.items()
    }
    missing = frozenset(name for name in expected if name not in found)
    unexpected = frozenset(name for name in found if name not in expected)
    mismatched = frozenset(
        name for name, shape in expected.items() if name in found and tuple(found[name]) != shape
    )
    return LoadingInfo(missing, unexpected, mismatched)
