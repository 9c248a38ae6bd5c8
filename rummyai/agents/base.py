"""The `Agent` protocol shared by the engine loop, the environments and the arena, plus the registry.

An agent sees only what its seat may see: the dict `rummyai.engine.game.view(state, seat)` returns,
and the list of legal moves the engine offers. It answers with one of those moves (or, for agents
that search the full manipulation space with the solver, another move the engine will validate).
Agents are built by name from a spec string such as ``"holdback:hold_turns=3:keep_joker=false"``.
"""

from __future__ import annotations

import importlib
import inspect
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from rummyai.engine.moves import Move
from rummyai.errors import RummyError
from rummyai.variants import Variant

View = Mapping[str, Any]


@runtime_checkable
class Agent(Protocol):
    """A player: `reset(seed)` before each game, then `act(view, legal)` for every decision.

    `view` is the acting seat's view of the game (own hand, table, public counts and flags);
    `legal` the moves the engine lists as legal for that seat (never empty when asked to act).
    Every random choice an agent makes comes from the seed given to `reset`.
    """

    name: str

    def reset(self, seed: int) -> None:
        """Prepare for a new game; all randomness from here on derives from `seed`."""
        ...

    def act(self, view: View, legal: Sequence[Move]) -> Move:
        """The move to play from this view."""
        ...


def check_agent_fits(agent: Agent, label: str, variant: Variant, players: int) -> None:
    """Refuse, naming the agent, a game it cannot play: an agent marked `tile_style_only` on a
    draw-and-discard variant, or one whose own `check_game(variant, players)` objects (a trained
    policy built for another observation shape). Matches, tournaments and the environments'
    opponents all ask this before the first move."""
    if getattr(agent, "tile_style_only", False) and not variant.tile_style:
        raise RummyError(
            f"agent {label!r} plays the tile-style variants only (rummikub, rummy-tiles, rummy-board, "
            f"rhine), not {variant.id}"
        )
    check = getattr(agent, "check_game", None)
    if callable(check):
        try:
            check(variant, players)
        except RummyError as error:
            raise RummyError(f"agent {label!r} cannot play this game: {error}") from None


@dataclass(frozen=True)
class AgentEntry:
    """A registered agent: where its factory lives (``module:attribute``) and a one-line summary."""

    target: str
    description: str

    def factory(self) -> Callable[..., Agent]:
        """Import and return the factory (imported lazily so heavy agents cost nothing until used)."""
        module, _, attribute = self.target.partition(":")
        factory: Callable[..., Agent] = getattr(importlib.import_module(module), attribute)
        return factory


_REGISTRY: dict[str, AgentEntry] = {}

#: Agent name -> one-line description, for `rummyai agents`.
AGENTS: dict[str, str] = {}


def register_agent(name: str, target: str, description: str) -> None:
    """Register an agent factory under `name` (``target`` is ``"package.module:Factory"``)."""
    _REGISTRY[name] = AgentEntry(target, description)
    AGENTS[name] = description


def make_agent(name: str, **params: Any) -> Agent:
    """Build a registered agent with keyword parameters; unknown names and parameters raise RummyError."""
    entry = _REGISTRY.get(name)
    if entry is None:
        known = ", ".join(sorted(_REGISTRY))
        raise RummyError(f"unknown agent {name!r} (known: {known})")
    factory = entry.factory()
    accepted = inspect.signature(factory).parameters
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in accepted.values())
    for key in params:
        if not takes_any and key not in accepted:
            allowed = ", ".join(p for p in accepted if p != "self") or "none"
            raise RummyError(f"agent {name!r} has no parameter {key!r} (parameters: {allowed})")
    _check_types(name, factory, params)
    _check_ranges(name, params)
    try:
        return factory(**params)
    except RummyError as error:  # the agent's own checks, named after the agent asked for
        text = str(error)
        raise RummyError(text if text.startswith(("agent ", name)) else f"agent {name!r}: {text}") from None


#: Largest magnitude of a numeric agent parameter: beyond it a run would never end (iterations,
#: worlds, turns) or the value is a typo.
MAX_PARAMETER = 1_000_000
MAX_SEED = 2**32 - 1


def _check_ranges(name: str, params: Mapping[str, Any]) -> None:
    """Refuse non-finite numbers, magnitudes past `MAX_PARAMETER` and seeds outside 0..2**32-1."""
    for key, value in params.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        if not math.isfinite(value):
            raise RummyError(f"agent {name!r}: parameter {key!r} must be a finite number, got {value!r}")
        if key == "seed" and not 0 <= value <= MAX_SEED:
            raise RummyError(f"agent {name!r}: seed must be between 0 and {MAX_SEED}, got {value!r}")
        if abs(value) > MAX_PARAMETER:
            raise RummyError(
                f"agent {name!r}: parameter {key!r} must be at most {MAX_PARAMETER:,}, got {value!r}"
            )


_PLAIN = {"int": (int,), "float": (int, float), "bool": (bool,), "str": (str,)}


def _check_types(name: str, factory: Callable[..., Agent], params: Mapping[str, Any]) -> None:
    """Refuse a parameter whose value does not match the factory's plain annotation (``int``,
    ``float``, ``bool``, ``str``, optionally ``| None``), naming it, rather than fail deep inside."""
    target = factory.__init__ if inspect.isclass(factory) else factory
    annotations = getattr(target, "__annotations__", {})
    for key, value in params.items():
        text = str(annotations.get(key, "")).replace(" ", "")
        optional = text.endswith("|None")
        wanted = _PLAIN.get(text.removesuffix("|None"))
        if wanted is None or (optional and value is None):
            continue
        is_bool = isinstance(value, bool)
        if not isinstance(value, wanted) or (is_bool and bool not in wanted):
            kind = text.removesuffix("|None")
            raise RummyError(f"agent {name!r}: parameter {key!r} must be {kind}, got {value!r}")


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"name:key=value:key=value"`` into the name and typed parameters.

    Values read as int, then float, then true/false, else stay text, so that experiments can
    sweep parameters from the command line (``holdback:hold_turns=4``).
    """
    name, *pairs = (part.strip() for part in spec.strip().split(":"))
    if not name:
        raise RummyError(f"agent spec {spec!r} has no agent name")
    params: dict[str, Any] = {}
    for pair in pairs:
        key, eq, text = pair.partition("=")
        key = key.strip()
        if not eq or not key:
            raise RummyError(f"agent spec {spec!r}: parameter {pair!r} is not key=value")
        if key in params:
            raise RummyError(f"agent spec {spec!r}: parameter {key!r} is given twice")
        params[key] = _parse_value(text.strip())
    return name, params


def make_agent_from_spec(spec: str) -> Agent:
    """Build an agent from a spec string (see `parse_agent_spec`)."""
    name, params = parse_agent_spec(spec)
    return make_agent(name, **params)


def _parse_value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    return text
