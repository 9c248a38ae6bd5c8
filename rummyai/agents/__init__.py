"""Agents: one `Agent` protocol (`reset(seed)`, `act(view, legal) -> Move`) and a registry by name.

`make_agent("random", seed=1)` or `make_agent_from_spec("random")` builds one; `AGENTS` maps
each registered name to a one-line description (what `rummyai agents` prints).
"""

from rummyai.agents.base import (
    AGENTS,
    Agent,
    View,
    make_agent,
    make_agent_from_spec,
    parse_agent_spec,
    register_agent,
)

register_agent(
    "random",
    "rummyai.agents.random_agent:RandomAgent",
    "uniform over the engine's legal moves (seeded baseline)",
)

__all__ = [
    "AGENTS",
    "Agent",
    "View",
    "make_agent",
    "make_agent_from_spec",
    "parse_agent_spec",
    "register_agent",
]
