"""Is a move object well formed? Field types checked against the move classes' annotations.

Moves built in Python (not parsed from JSON, which checks its own input) reach `validate` and
`apply` as they are; a string where a wild's `Meaning` belongs or a float card index would
otherwise fail deep inside a rule check, and `True` would pass as the index 1. This walks a
move's dataclass fields by their annotations (ints, optional ints, meanings, table melds, tuples
and unions of moves) and names the first field that does not fit.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from numbers import Integral
from typing import Any

from rummyai.engine.moves import Move, card_ids


def move_problem(move: object) -> str | None:
    """What is malformed in `move` (a field and what it holds), or None when it is well formed.
    Walks every field down to the cards (about 0.1 ms for a whole Rummikub table)."""
    if not isinstance(move, Move):
        return f"{move!r} is not a move"
    return _problem(move, type(move), type(move).__name__)


def quick_move_problem(move: object) -> str | None:
    """`move_problem` on the move's own number fields (a card, an index, a seat), and on the
    whole move when a card id inside it is not a plain int: a `True` or `1.0` would pass as a
    number, and a remembered rule check would take 11.0 for 11. Cheap enough for every move."""
    if not isinstance(move, Move):
        return f"{move!r} is not a move"
    for name, kind in _hints(type(move)).items():
        if kind is int or kind == (int | None):
            problem = _problem(getattr(move, name), kind, f"{type(move).__name__}.{name}")
            if problem is not None:
                return problem
    if any(type(i) is not int for i in card_ids(move)):  # 1.0, True or a numpy integer in a meld
        return move_problem(move)
    return None


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    """The resolved field annotations of a dataclass, kept per class."""
    known = _HINTS.get(cls)
    if known is None:
        known = _HINTS[cls] = typing.get_type_hints(cls)
    return known


def _problem(value: object, kind: Any, where: str) -> str | None:
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(kind)
        if any(_problem(value, option, where) is None for option in options):
            return None
        return f"{where} is {value!r}, which is none of {', '.join(_name(o) for o in options)}"
    if origin is tuple:
        if not isinstance(value, tuple):
            return f"{where} must be a tuple, got {value!r}"
        args = typing.get_args(kind)
        item = args[0] if len(args) == 2 and args[1] is Ellipsis else None
        for i, part in enumerate(value):
            inner = item if item is not None else (args[i] if i < len(args) else Any)
            problem = _problem(part, inner, f"{where}[{i}]")
            if problem is not None:
                return problem
        return None
    if kind is Any:
        return None
    if kind is type(None):
        return None if value is None else f"{where} must be None, got {value!r}"
    if kind is int:  # numpy's integers too, but not True or 1.0
        if isinstance(value, bool) or not isinstance(value, Integral):
            return f"{where} must be a whole number, got {value!r}"
        return None
    if not isinstance(value, kind):
        return f"{where} must be a {_name(kind)}, got {value!r}"
    if dataclasses.is_dataclass(value):  # a move, a table meld, a meaning: their own fields
        for field in dataclasses.fields(value):
            problem = _problem(
                getattr(value, field.name), _hints(type(value))[field.name], f"{where}.{field.name}"
            )
            if problem is not None:
                return problem
    return None


def _name(kind: Any) -> str:
    return "None" if kind is type(None) else getattr(kind, "__name__", str(kind))
