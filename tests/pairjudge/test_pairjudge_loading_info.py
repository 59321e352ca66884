"""The loading-info detail of ``incomplete trained weights``, in the form the reference prints it
(spec §5: ``{'missing_keys': ..., 'unexpected_keys': ..., 'mismatched_keys': ..., 'error_msgs': []}``),
with more than one name in a set (the kit lists them sorted) and every set non-empty in turn."""

from __future__ import annotations

import pytest

from contract.pairjudge.architecture import LoadingInfo


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
