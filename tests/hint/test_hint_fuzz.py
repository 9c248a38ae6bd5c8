"""Random bodies thrown at every endpoint of a live service: never a 500, errors always named."""

from __future__ import annotations

import json
from typing import Any

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummyai.variants import VARIANT_IDS

ENDPOINTS = ["/v1/hint", "/v1/solve", "/v1/validate"]
TOKENS = ["7H", "8H", "9H", "TH", "JK", "JK=9H", "JK=9", "10S", "AD", "KC", "2C", "9S", "9D", "9C", "7h"]
ODD_TOKENS = ["QQ", "", "=", "JK=", "KS/9H", "5C=5C", "2C=5S", "|", "1H", "JK=ZZ", "7H/"]
MELDS = [
    ["7H", "8H", "9H"],
    ["9S", "9D", "9C"],
    ["JK", "TH", "JH"],
    ["AD", "2D", "3D", "4D"],
    ["KC", "KS", "KH"],
]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=10,
)
token = st.sampled_from(TOKENS) | st.sampled_from(ODD_TOKENS) | st.text(max_size=4)
cards = st.lists(token, max_size=8) | st.lists(token, max_size=8).map(" ".join) | json_values
table = (
    st.lists(st.sampled_from(MELDS), max_size=4)
    | st.lists(st.lists(token, max_size=5), max_size=4)
    | st.lists(st.sampled_from(MELDS), max_size=4).map(lambda ms: " | ".join(" ".join(m) for m in ms))
    | json_values
)
bodies = st.fixed_dictionaries(
    {},
    optional={
        "variant": st.sampled_from([*VARIANT_IDS, "nope", "RUMMIKUB"]) | json_values,
        "options": st.lists(st.sampled_from(["decks=2", "official_jokers", "rounds=0", "x"]), max_size=2)
        | json_values,
        "hand": cards,
        "table": table,
        "new_table": table,
        "opened": st.booleans() | json_values,
        "objective": st.sampled_from(["cards", "points", "penalty", "most"]) | json_values,
        "alternatives": st.integers(-2, 8) | st.integers() | json_values,
        "time_limit": st.sampled_from([0.05, 0.5, 1e9, 1e300, -1.0, 0.0, 10**40]) | json_values,
        "max_cards": st.integers(-2, 20) | st.integers() | json_values,
        "surprise": json_values,
    },
)


def _check(answer: httpx.Response) -> None:
    assert answer.status_code in (200, 413, 422), (answer.status_code, answer.text)
    data = answer.json()
    if answer.status_code != 200:
        assert isinstance(data["error"], str) and data["error"]
    else:
        assert isinstance(data, dict) and "error" not in data


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(ENDPOINTS), bodies)
def test_structured_random_bodies(client: httpx.Client, endpoint: str, body: dict[str, Any]) -> None:
    _check(
        client.post(endpoint, content=json.dumps(body).encode(), headers={"content-type": "application/json"})
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(ENDPOINTS), json_values | st.binary(max_size=40).map(lambda b: b.hex()))
def test_any_json_or_bytes(client: httpx.Client, endpoint: str, body: Any) -> None:
    raw = body.encode() if isinstance(body, str) else json.dumps(body).encode()
    _check(client.post(endpoint, content=raw))
    _check(client.post(endpoint, content=json.dumps(body).encode()))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["/healthz", "/v1/variants"]), st.text(max_size=10))
def test_get_endpoints_ignore_query_noise(client: httpx.Client, path: str, noise: str) -> None:
    answer = client.get(path, params={"q": noise})
    assert answer.status_code == 200
