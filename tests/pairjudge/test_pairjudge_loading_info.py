"""The loading-info detail of ``incomplete trained weights``, in the form the reference prints it
(spec §5: ``{'missing_keys': ..., 'unexpected_keys': ..., 'mismatched_keys': ..., 'error_msgs': []}``),
with more than one name in a set (the kit lists them sorted) and every set non-empty in turn."""

from __future__ import annotations

import pytest

from contract.pairjudge.architecture import LoadingInfo, compare


@pytest.mark.parametrize(
    ("missing", "unexpected", "mismatched", "text"),
    [
        ({"score.weight", "lm_head.weight"}, set(), set(),
         "{'missing_keys': {'lm_head.weight', 'score.weight'}, 'unexpected_keys': set(), "
         "'mismatched_keys': set(), 'error_msgs': []}"),
        (set(), {"extra.b", "extra.a"}, set(),
         "{'missing_keys': set(), 'unexpected_keys': {'extra.a', 'extra.b'}, "
         "'mismatched_keys': set(), 'error_msgs': []}"),
        ({"m"}, {"u"}, {"x", "w"},
         "{'missing_keys': {'m'}, 'unexpected_keys': {'u'}, 'mismatched_keys': {'w', 'x'}, 'error_msgs': []}"),
    ],
)
def test_pairjudge_loading_info_render(missing: set[str], unexpected: set[str], mismatched: set[str], text: str) -> None:
    info = LoadingInfo(frozenset(missing), frozenset(unexpected), frozenset(mismatched))
    assert info.render() == text


EXPECTED = {"transformer.wte.weight": (8, 16), "transformer.ln_f.weight": (16,), "score.weight": (3, 16)}


@pytest.mark.parametrize(
    ("found", "info"),
    [
        # a checkpoint without the base prefix: the prefix is added to every name but the head's
        ({"wte.weight": (8, 16), "ln_f.weight": (16,), "score.weight": (3, 16)},
         LoadingInfo(frozenset(), frozenset(), frozenset())),
        ({"wte.weight": (8, 16), "ln_f.weight": (16,), "score.weight": (3, 16), "extra.bias": (2,)},
         LoadingInfo(frozenset(), frozenset({"transformer.extra.bias"}), frozenset())),
        ({"wte.weight": (8, 16), "ln_f.weight": (16,), "score.weight": (3, 16), "classifier.weight": (3, 16)},
         LoadingInfo(frozenset(), frozenset({"classifier.weight"}), frozenset())),
        # with the prefix, and the head saved under it: it loads as the head (observed)
        ({"transformer.wte.weight": (8, 16), "transformer.ln_f.weight": (16,), "transformer.score.weight": (3, 16)},
         LoadingInfo(frozenset(), frozenset(), frozenset())),
        ({"transformer.wte.weight": (8, 16), "transformer.ln_f.weight": (4,), "score.weight": (3, 16),
          "transformer.extra": (1,)},
         LoadingInfo(frozenset(), frozenset({"transformer.extra"}), frozenset({"transformer.ln_f.weight"}))),
        ({"transformer.wte.weight": (8, 16)},
         LoadingInfo(frozenset({"transformer.ln_f.weight", "score.weight"}), frozenset(), frozenset())),
    ],
    ids=["unprefixed", "unprefixed-extra", "unprefixed-other-head", "head-under-prefix", "prefixed-mismatch", "prefixed-missing"],
)
def test_pairjudge_compare_with_the_base_prefix(found: dict[str, tuple[int, ...]], info: LoadingInfo) -> None:
    assert compare(EXPECTED, found, "transformer.") == info
