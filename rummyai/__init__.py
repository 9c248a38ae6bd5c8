"""rummyai: rules engines, an exact meld solver, environments and agents for rummy games."""

from rummyai.errors import (
    CardError,
    DeckError,
    IllegalMoveError,
    MeldError,
    RummyError,
    VariantError,
)
from rummyai.variants import BUILTINS, VARIANT_IDS, Variant, get_variant

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    """`rummyai.hint(...)` and `rummyai.solve(...)` without importing the solver on `import rummyai`."""
    if name == "hint":
        from importlib import import_module

        return import_module("rummyai.hint")
    if name == "solve":
        from rummyai.solvers import solve

        return solve
    raise AttributeError(f"module 'rummyai' has no attribute {name!r}")


__all__ = [
    "BUILTINS",
    "VARIANT_IDS",
    "CardError",
    "DeckError",
    "IllegalMoveError",
    "MeldError",
    "RummyError",
    "Variant",
    "VariantError",
    "__version__",
    "get_variant",
]
