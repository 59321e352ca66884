"""Where the pad token comes from, in order — special_tokens_map.json, then tokenizer_config.json, then
(for the pad token only) tokenizer.json's padding block — and a token value of the wrong kind refused in
full (schema/pairjudge-check-table.json: ``tokenizer.pad``, ``model.pad``, ``detail.tokenizer.token*``).

The recorded full bundle names ``[PAD]`` in tokenizer_config.json and has no padding block and no
special_tokens_map.json."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pairjudge_support import verify_recipe

NO_PAD = {"op": "delete", "file": "tokenizer_config.json", "path": "/pad_token"}
NEITHER = "is neither a token string nor an object with a string 'content'"


def _padding(pad_token: Any) -> dict[str, Any]:
    block = {"pad_token": pad_token, "strategy": "BatchLongest", "direction": "Right", "pad_to_multiple_of": None,
             "pad_id": 1, "pad_type_id": 0}
    return {"op": "set", "file": "tokenizer.json", "path": "/padding", "value": block}


@pytest.mark.parametrize(("ops", "expected"), [
    ([NO_PAD], ("tokenizer.pad", "saved judge tokenizer must have an explicit pad token")),
    ([NO_PAD, _padding("[PAD]")], (None, None)),
    ([NO_PAD, _padding(5)], ("tokenizer.files", f"tokenizer.json padding.pad_token {NEITHER}")),
    # a plain object there is refused as in tokenizer_config.json (spec §5: a token given as an object fails
    # the reference); only special_tokens_map.json may hold one
    ([NO_PAD, _padding({"content": "[PAD]"})],
     ("tokenizer.files", 'tokenizer.json padding.pad_token is an object without "__type": "AddedToken"; the '
                         "reference's tokenizer loading fails on it (TypeError)")),
    ([{"op": "write_text", "file": "special_tokens_map.json", "text": '{"pad_token": {"content": "[EOS]"}}'}],
     ("model.pad", "model and saved tokenizer padding token differ")),
    ([{"op": "write_text", "file": "special_tokens_map.json", "text": '{"pad_token": {"content": 3}}'}],
     ("tokenizer.files", f"special_tokens_map.json pad_token {NEITHER}")),
    ([{"op": "set", "file": "tokenizer_config.json", "path": "/pad_token", "value": {"content": "[PAD]"}}],
     ("tokenizer.files", 'tokenizer_config.json pad_token is an object without "__type": "AddedToken"; the '
                         "reference's tokenizer loading fails on it (TypeError)")),
    ([{"op": "set", "file": "tokenizer_config.json", "path": "/pad_token", "value": 7}],
     ("tokenizer.files", f"tokenizer_config.json pad_token {NEITHER}")),
], ids=["none", "from-padding", "padding-not-a-token", "padding-object", "map-overrides-config", "map-content-not-text",
        "config-object", "config-number"])
def test_the_pad_token_and_where_it_is_read(tmp_path: Path, ops: list[dict[str, Any]],
                                            expected: tuple[str | None, str | None]) -> None:
    verdict = verify_recipe(tmp_path, ops)
    assert (verdict.code, verdict.message) == expected
