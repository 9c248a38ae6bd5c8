"""The agent registry, spec strings and the random agent."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from rummyai.agents import AGENTS, Agent, make_agent, make_agent_from_spec, parse_agent_spec
from rummyai.agents.random_agent import RandomAgent
from rummyai.engine.moves import Draw, Move, Play
from rummyai.engine.state import TableMeld
from rummyai.errors import RummyError

MELD = TableMeld(ids=(0, 1, 2), meanings=(None, None, None))
LEGAL: list[Move] = [Draw(), Play(table=()), Play(table=(MELD,))]


def test_specs_parse_into_a_name_and_typed_parameters() -> None:
    assert parse_agent_spec("random") == ("random", {})
    name, params = parse_agent_spec(" holdback:hold_turns=3:keep_joker=false:margin=0.5:mode=safe ")
    assert name == "holdback"
    assert params == {"hold_turns": 3, "keep_joker": False, "margin": 0.5, "mode": "safe"}
    with pytest.raises(RummyError, match="not key=value"):
        parse_agent_spec("random:seed")
    with pytest.raises(RummyError, match="no agent name"):
        parse_agent_spec(":seed=1")


def test_registry_lists_agents_and_rejects_unknown_names_and_parameters() -> None:
    assert AGENTS.get("random")
    agent = make_agent("random", seed=3)
    assert isinstance(agent, Agent) and agent.name == "random"
    with pytest.raises(RummyError, match="unknown agent 'nope'"):
        make_agent("nope")
    with pytest.raises(RummyError, match="no parameter 'depth'"):
        make_agent_from_spec("random:depth=2")


def test_random_agent_is_seeded_and_uniform_over_legal_moves() -> None:
    view = {"seat": 0}
    a, b = RandomAgent(), RandomAgent()
    a.reset(42)
    b.reset(42)
    picks_a = [a.act(view, LEGAL) for _ in range(300)]
    picks_b = [b.act(view, LEGAL) for _ in range(300)]
    assert picks_a == picks_b
    b.reset(43)
    assert [b.act(view, LEGAL) for _ in range(300)] != picks_a
    counts = Counter(LEGAL.index(m) for m in picks_a)
    assert set(counts) == {0, 1, 2}
    assert all(70 <= c <= 130 for c in counts.values())


def test_random_agent_refuses_to_act_without_legal_moves() -> None:
    with pytest.raises(RummyError, match="no legal move"):
        RandomAgent().act({"seat": 1}, [])


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("random:seed=abc", "'seed' must be int, got 'abc'"),
        ("holdback:danger=2.5", "'danger' must be int, got 2.5"),
        ("holdback:keep_joker=1", "'keep_joker' must be bool, got 1"),
        ("greedy:work_limit=fast", "'work_limit' must be float, got 'fast'"),
        ("holdback:hold_turns=3:hold_turns=4", "parameter 'hold_turns' is given twice"),
    ],
)
def test_a_parameter_of_the_wrong_type_is_named(spec: str, message: str) -> None:
    with pytest.raises(RummyError, match=re.escape(message)):
        make_agent_from_spec(spec)


def test_parameters_of_the_right_type_pass() -> None:
    assert make_agent_from_spec("holdback:work_limit=2:keep_joker=false:danger=3").name == "holdback"
    assert make_agent_from_spec("mcts:iterations=10:deviation_z=0").name == "mcts"


def test_a_seat_that_is_neither_a_name_nor_an_agent_is_named() -> None:
    import rummyai

    with pytest.raises(RummyError, match="3 is neither an agent name nor an agent"):
        rummyai.play_match("rummikub", [3, "greedy"], seed=3)  # type: ignore[list-item]
