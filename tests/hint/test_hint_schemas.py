"""Every HTTP answer matches its typed model (no field undocumented, none missing), the OpenAPI
document names the models, and steps follow one index convention (0-based data, 1-based text)."""

from __future__ import annotations

import re

import httpx
import pytest

from rummyai.hint.schemas import HealthAnswer, HintAnswer, SolveAnswer, ValidateAnswer, VariantModel

POSITIONS = [
    {"variant": "rummikub", "hand": "7H 8H 9H JK 5S 5D", "table": "3C 4C 5C | 5H 6H 7H 8H"},
    {"variant": "rhine", "hand": "8C JC", "table": "7C JK 9C"},
    {"variant": "rummy-tiles", "hand": "6C TD", "table": "3C 4C 5C"},
    {"variant": "rummy-palace", "hand": "7H 8H 9H 2C", "table": "3C 4C JK=5C", "opened": False},
    {"variant": "standard", "hand": "7H 7H 7C", "options": ["decks=2"]},
    {"variant": "black-heart", "hand": "7H 8S 9S", "table": "7S 7C QD=7"},
]


@pytest.mark.parametrize("body", POSITIONS, ids=[p["variant"] for p in POSITIONS])
def test_answers_match_their_models(client: httpx.Client, body: dict[str, object]) -> None:
    hint = client.post("/v1/hint", json=body)
    assert hint.status_code == 200, hint.text
    HintAnswer.model_validate(hint.json())
    solve = client.post("/v1/solve", json=body)
    assert solve.status_code == 200, solve.text
    SolveAnswer.model_validate(solve.json())


def test_other_answers_match_their_models(client: httpx.Client) -> None:
    HealthAnswer.model_validate(client.get("/healthz").json())
    for variant in client.get("/v1/variants").json():
        VariantModel.model_validate(variant)
    for new_table in (["7H 8H 9H"], ["7H 8H"]):
        body = {"variant": "rummikub", "hand": "7H 8H 9H", "new_table": new_table}
        ValidateAnswer.model_validate(client.post("/v1/validate", json=body).json())


def test_openapi_describes_the_answers(client: httpx.Client) -> None:
    spec = client.get("/openapi.json").json()
    ok = spec["paths"]["/v1/hint"]["post"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert ok == {"$ref": "#/components/schemas/HintAnswer"}
    step = spec["components"]["schemas"]["StepModel"]["properties"]
    assert "0-based" in step["from_meld"]["description"] and "0-based" in step["to_meld"]["description"]
    busy = spec["paths"]["/v1/hint"]["post"]["responses"]["503"]
    assert "Retry-After" in busy["headers"]


def test_step_indexes_and_text_agree(client: httpx.Client) -> None:
    table = [["3C", "4C", "5C"], ["5H", "6H", "7H", "8H"]]
    answer = client.post("/v1/hint", json={"hand": "6C 9D TD JD 5S 5D", "table": table}).json()
    best = answer["best"]
    seen_new = False
    for step in best["steps"]:
        if step["from_meld"] is not None:  # "meld N" in the text is the start table's index N-1
            old = " ".join(table[step["from_meld"]])
            assert f"meld {step['from_meld'] + 1} ({old})" in step["text"]
        to = step["to_meld"]
        if to is not None and best["origin"][to] is None:  # a new meld: "new meld N" is index N-1
            assert re.search(rf"new meld {to + 1}\b", step["text"]), step
            seen_new = True
        elif to is not None:
            assert f"meld {best['origin'][to] + 1} (" in step["text"]
    assert seen_new
