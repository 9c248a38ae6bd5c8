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
