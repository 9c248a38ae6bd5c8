"""Hint engine: the best move and alternatives, with the steps a person follows, over Python and HTTP.

`hint(variant, hand, table)` answers with the best move and a few alternatives; `hint_json` takes
and returns the JSON contract; `format_hint` prints an answer readably; `plan_steps` turns a table
change into steps. `create_app` and `serve` (extra ``serve``: FastAPI and uvicorn) expose it all
over HTTP. Names are imported lazily so that `import rummyai.hint` stays light.

The package itself is callable: importing any `rummyai.hint` module makes the package the attribute
``rummyai.hint`` in place of the typed function `rummyai.hint`, and ``rummyai.hint(variant, hand,
table)`` must go on working after that.
"""

from __future__ import annotations

import sys
import types
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rummyai.hint.api import Hint, Suggestion, format_hint, hint, hint_json
    from rummyai.hint.limits import Limits
    from rummyai.hint.service import create_app, serve
    from rummyai.hint.steps import Step, StepPlan, plan_steps

_EXPORTS = {
    "Hint": "rummyai.hint.api",
    "Suggestion": "rummyai.hint.api",
    "format_hint": "rummyai.hint.api",
    "hint": "rummyai.hint.api",
    "hint_json": "rummyai.hint.api",
    "Limits": "rummyai.hint.limits",
    "create_app": "rummyai.hint.service",
    "serve": "rummyai.hint.service",
    "Step": "rummyai.hint.steps",
    "StepPlan": "rummyai.hint.steps",
    "plan_steps": "rummyai.hint.steps",
}

__all__ = [
    "Hint",
    "Limits",
    "Step",
    "StepPlan",
    "Suggestion",
    "create_app",
    "format_hint",
    "hint",
    "hint_json",
    "plan_steps",
    "serve",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'rummyai.hint' has no attribute {name!r}")
    return getattr(import_module(module), name)


class _CallableModule(types.ModuleType):
    """This package's module type: calling the package calls `hint`."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return import_module("rummyai.hint.api").hint(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
