"""Variants as data: one frozen `Variant` holds every rule of a game; options derive new variants.

The seven built-ins are `rummikub`, `rhine`, `rummy-tiles`, `rummy-board`, `rummy-palace`,
`standard` and `black-heart`. Named options (``rhine.wild_twos``, ``decks=2``, ...) are applied
with `Variant.with_options`, which returns a new frozen variant and records the option in
`Variant.options`. Rules that are not plain parameters (Black Heart's escorts, its diamond wilds
and the Diamond Royale) are small rule objects held by the variant.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from numbers import Integral, Real
from typing import TYPE_CHECKING, Any, Literal

from rummyai.cards import CLUBS, DIAMONDS, HEARTS, JOKER, SPADES, build_deck, make_card
from rummyai.errors import VariantError

if TYPE_CHECKING:
    from rummyai.jokers import JokerRules

TurnFamily = Literal["play_or_draw", "draw_meld_discard"]
Opening = Literal["none", "natural_meld", "points", "chart"]
WildOpeningValue = Literal["forbidden", "zero", "represented"]
JokerPolicy = Literal["rhine", "tiles_locked", "free", "official", "swap_exact", "diamond_swap", "none"]
HarvestedJoker = Literal[
    "stay_on_table",  # rhine, rummy-board, rummikub: a table joker never leaves the table
    "new_meld_with_hand_card",  # rummy-tiles T4(c, d): a new meld with another rack tile, same turn
    "new_meld_this_turn",  # rummikub official_jokers: a new meld this turn
    "replay_this_turn",  # rummy-palace: back on the table this turn (new meld or lay-off)
    "keep_unless_committed",  # black-heart: to the hand; replay only if swapped for a committed card
    "none",  # no wilds
]
Scoring = Literal["penalty_low", "winner_takes_sum", "rank_by_hand", "played_minus_held"]
GameEnd = Literal["rounds", "total_at_most", "out_with_at_least"]
StockOut = Literal[
    "end_if_no_play",
    "stalemate_minipool",
    "end_on_last_draw",
    "recycle_then_void",
    "end_deal",
    "cycle_without_play",
]

ALL_NATURALS = frozenset(range(52))


@dataclass(frozen=True)
class RunRule:
    """How runs of one suit may be built: ace low/high, wrap-around, highest rank allowed."""

    ace_low: bool = True
    ace_high: bool = False
    wrap: bool = False
    max_rank: int = 13


@dataclass(frozen=True)
class WildRule:
    """A card the variant makes wild and the card kinds it may stand for.

    `plays_itself` marks a wild that may also be used as the natural card it is (Black Heart's
    diamonds in a group of their own rank or in the Royale). `scope` says in words what it may
    stand for, for error messages.
    """

    card: int
    stands_for: frozenset[int]
    plays_itself: bool = False
    scope: str = "any card"


@dataclass(frozen=True)
class EscortRule:
    """Black Heart (§6.2): each of `needs_escort` (natural or meant by a wild) carries one escort
    from `escorts` (a heart, or a wild standing for one)."""

    needs_escort: frozenset[int]
    escorts: frozenset[int]


@dataclass(frozen=True)
class RoyaleRule:
    """Black Heart's Diamond Royale (§6.2): a fixed run of these cards as themselves, worth `value`."""

    cards: tuple[int, ...]
    value: int


@dataclass(frozen=True)
class ChartStep:
    """One line of Black Heart's opening chart: from `min_score` on, `melds` new melds holding
    at least `min_cards` cards between them (melds=0: no requirement)."""

    min_score: int
    melds: int
    min_cards: int


def _values(ace: int, two_to_nine: Iterable[int], ten: int, court: tuple[int, int, int]) -> tuple[int, ...]:
    """Values by rank index 0..14 (0 unused, 14 = high ace)."""
    ranks = [0, ace, *two_to_nine, ten, *court, ace]
    assert len(ranks) == 15
    return tuple(ranks)


FACE_VALUES = _values(1, range(2, 10), 10, (11, 12, 13))


@dataclass(frozen=True)
class Variant:
    """Every rule of one rummy variant, as data (see docs/rules §7.2 for the model)."""

    id: str
    name: str
    summary: str
    family: TurnFamily
    # deck
    decks: int
    jokers: int
    removed: tuple[int, ...] = ()
    # players and deal
    min_players: int = 2
    max_players: int = 4
    hand_size: int = 14
    discard_mode: Literal["none", "top", "row"] = "none"
    first_player: Literal["left_of_dealer", "random_then_rotate"] = "random_then_rotate"
    # turn
    max_hand_cards_per_turn: int | None = None
    invalid_play_penalty: int = 0
    take_must_play: bool = False
    no_rediscard_of_taken: bool = False
    go_out_by_discard_only: bool = False
    knocking: bool = False
    # melds
    min_meld: int = 3
    group_max: int | None = 4
    group_distinct_suits: bool = True
    run_rules: tuple[RunRule | None, ...] = (RunRule(),) * 4
    wilds: tuple[WildRule, ...] = ()
    max_wilds_per_meld: int | None = None
    wilds_le_naturals: bool = False
    min_naturals_per_meld: int = 1
    escorts: EscortRule | None = None
    royale: RoyaleRule | None = None
    # opening
    opening: Opening = "points"
    opening_points: int = 30
    opening_single_meld: bool = False
    opening_wild_value: WildOpeningValue = "represented"
    opening_values: tuple[int, ...] = FACE_VALUES
    opening_group_ace: int = 1
    opening_min_naturals: int = 0
    opening_turn_exclusive: bool = False
    opening_chart: tuple[ChartStep, ...] = ()
    # manipulation and jokers
    manipulation: bool = True
    joker_policy: JokerPolicy = "free"
    joker_replacement_from: Literal["rack", "rack_or_table"] = "rack"
    harvested_joker: HarvestedJoker = "stay_on_table"
    swap_requires_opened: bool = True
    # scoring (hand values by card kind 0..52)
    hand_values: tuple[int, ...] = ()
    scoring: Scoring = "winner_takes_sum"
    low_score_wins: bool = False
    down_and_out_bonus: int = 0
    going_rummy_multiplier: int = 1
    going_out_bonus: int = 0
    black_heart_bonus_per_player: int = 0
    # round and match end
    rounds: int | None = 1
    game_end: GameEnd = "rounds"
    game_end_score: int | None = None
    stock_out: StockOut = "cycle_without_play"
    max_stock_recycles: int = 0
    options: frozenset[str] = field(default_factory=frozenset)

    # ----------------------------------------------------------------- derived data
    @cached_property
    def deck(self) -> tuple[int, ...]:
        """Kind of each physical card id, in §7.1 order."""
        return tuple(build_deck(self.decks, self.jokers, self.removed))

    @cached_property
    def copies(self) -> tuple[int, ...]:
        """How many copies of each kind 0..52 the deck holds."""
        counts = [0] * 53
        for card in self.deck:
            counts[card] += 1
        return tuple(counts)

    @cached_property
    def wild_map(self) -> Mapping[int, WildRule]:
        """Wild rules by card kind."""
        return {rule.card: rule for rule in self.wilds}

    @cached_property
    def joker_rules(self) -> JokerRules:
        """The joker rule object of `joker_policy`: every layer asks it, not the policy's name."""
        from rummyai.jokers import joker_rules

        return joker_rules(self.joker_policy)

    def is_wild(self, card: int) -> bool:
        """Whether this card kind can act as a wild in this variant."""
        return card in self.wild_map

    def always_wild(self, card: int) -> bool:
        """Whether this card kind can never play as itself (a joker, or a Rhine wild two)."""
        rule = self.wild_map.get(card)
        return rule is not None and not rule.plays_itself

    @property
    def upcard(self) -> bool:
        """Whether the deal turns one card up to start the discard pile or row."""
        return self.discard_mode != "none"

    @property
    def max_deals(self) -> int | None:
        """Deal cap of games won by going out with a score (standard, black-heart), else None."""
        return self.rounds if self.game_end == "out_with_at_least" else None

    @property
    def tile_style(self) -> bool:
        """True for the play-or-draw family, where the whole table may be rearranged."""
        return self.family == "play_or_draw"

    def hand_value(self, card: int) -> int:
        """Penalty / score value of a card kind (§ scoring table of the variant)."""
        return self.hand_values[card]

    def describe(self) -> dict[str, Any]:
        """Plain-data summary used by `rummyai variants --json`."""
        return {
            "id": self.id,
            "name": self.name,
            "summary": self.summary,
            "family": self.family,
            "cards": len(self.deck),
            "players": [self.min_players, self.max_players],
            "hand_size": self.hand_size,
            "options": sorted(self.options),
            "available_options": sorted(OPTIONS.get(self.id, {})),
        }

    # ----------------------------------------------------------------- options
    def with_options(
        self, options: Mapping[str, Any] | Iterable[str] | None = None, /, **values: Any
    ) -> Variant:
        """A new variant with named options applied.

        Options come as a mapping (``{"rhine.wild_twos": True, "decks": 2}``), as strings
        (``["cyclic_laying", "decks=2"]``) or as keywords (``knocking=True``). The options already
        set stay set unless given again, so ``False`` turns a flag off. The result is rebuilt
        from the built-in variant with every option applied in a fixed order, and the same
        settings give the same (cached) variant object, which shares its meld cache.
        """
        available = OPTIONS.get(self.id, {})
        origin: Variant | None = self.__dict__.get("_origin")
        base = self if origin is None else origin
        settings = {} if origin is None else self._recorded_options()
        for name, value in _option_pairs(options, values):
            option = available.get(name)
            if option is None:
                known = ", ".join(sorted(available)) or "none"
                raise VariantError(f"unknown option {name!r} for variant {self.id!r} (known: {known})")
            settings[name] = option.coerce(name, value)
        # a flag that is off changes nothing, so it does not make a different variant
        key = tuple(
            (name, settings[name])
            for name in available
            if name in settings and not (available[name].kind is bool and settings[name] is False)
        )
        if not key:
            return base
        derived: dict[tuple[tuple[str, Any], ...], Variant] = base.__dict__.setdefault("_derived", {})
        variant = derived.get(key)
        if variant is None:
            variant = base
            for name, value in key:
                variant = available[name].apply(variant, value)
            variant.check()
            variant.__dict__["_origin"] = base
            derived[key] = variant
        return variant

    def _recorded_options(self) -> dict[str, Any]:
        """The option settings recorded in `options` (``name`` for flags, ``name=value``)."""
        available = OPTIONS.get(self.id, {})
        settings: dict[str, Any] = {}
        for text in self.options:
            name, eq, value = text.partition("=")
            if name in available:
                settings[name] = available[name].coerce(name, value if eq else True)
        return settings

    def __getstate__(self) -> dict[str, Any]:
        """Pickle the rules and the option origin, not the meld or derived-variant caches."""
        return {k: v for k, v in self.__dict__.items() if k not in ("_meld_cache", "_derived")}

    def check(self) -> None:
        """Reject combinations that cannot be played."""
        if self.min_players > self.max_players:
            raise VariantError(f"{self.id}: min_players exceeds max_players")
        if self.rounds is not None and self.rounds < 1:
            raise VariantError(f"{self.id}: rounds must be at least 1")
        if self.joker_replacement_from != "rack" and not self.joker_rules.replacement_source_option:
            raise VariantError(
                f"{self.id}: option 'joker_replacement_from' says where a taken table joker's replacement "
                "comes from, so it needs the option 'official_jokers' (without it table jokers move freely)"
            )


# --------------------------------------------------------------------- option machinery
Options = Mapping[str, Any] | Iterable[str] | None
"""Variant options: ``["cyclic_laying", "decks=2"]`` or ``{"rhine.wild_twos": True}``."""
BARE = object()  # an option named without a value ("name" rather than "name=value")


def _option_pairs(
    options: Mapping[str, Any] | Iterable[str] | None, values: Mapping[str, Any]
) -> list[tuple[str, Any]]:
    """(name, raw value) pairs from a mapping, ``name``/``name=value`` strings and keywords."""
    pairs: list[tuple[str, Any]] = []
    if isinstance(options, Mapping):
        for key, value in options.items():
            if not isinstance(key, str):
                raise VariantError(f"option names are strings, got {key!r}")
            pairs.append((key.strip(), value))
    elif isinstance(options, str):
        raise VariantError(f"options must be a list of strings or a mapping, not the string {options!r}")
    elif options is not None:
        if not isinstance(options, Iterable):
            raise VariantError(f"options must be a list of strings or a mapping, got {options!r}")
        for text in options:
            if not isinstance(text, str):
                raise VariantError(f"options are 'name' or 'name=value' strings, got {text!r}")
            name, eq, value = text.partition("=")
            pairs.append((name.strip(), value.strip() if eq else BARE))
    pairs.extend(values.items())
    seen: set[str] = set()
    for name, _ in pairs:
        if name in seen:
            raise VariantError(f"option {name!r} is given twice: give each option once")
        seen.add(name)
    return pairs


@dataclass(frozen=True)
class Option:
    """A named option: its value type and the function deriving the new variant."""

    kind: type
    apply: Callable[[Variant, Any], Variant]
    help: str

    def coerce(self, name: str, value: Any) -> Any:
        """Convert a value given as text or JSON to the option's type, naming bad values (a name
        given alone, `BARE`, turns a flag on and is refused for other options)."""
        if value is BARE:
            if self.kind is bool:
                return True
            raise VariantError(f"option {name!r} needs a value: write {name}=...")
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off"):
                return False
        elif self.kind is int and not isinstance(value, bool):  # True is no count
            if isinstance(value, Integral):
                return int(value)
            if isinstance(value, Real) and float(value).is_integer():  # 2.0 is 2; 2.5 rounds is not
                return int(float(value))
            if isinstance(value, str):
                with contextlib.suppress(ValueError):
                    return int(value.strip())
        elif self.kind is str:
            return str(value)
        wanted = {int: "an integer (int)", bool: "true or false (bool)", str: "a string"}[self.kind]
        raise VariantError(f"option {name!r} needs {wanted}, got {value!r}")


def _flag(name: str, changes: Callable[[Variant], dict[str, Any]]) -> Callable[[Variant, bool], Variant]:
    def apply(variant: Variant, on: bool) -> Variant:
        options = variant.options - {name}
        if not on:
            return replace(variant, options=options)
        return replace(variant, options=options | {name}, **changes(variant))

    return apply


def _setting(
    name: str, field_name: str, low: int | None = None, choices: tuple[str, ...] = ()
) -> Callable[[Variant, Any], Variant]:
    def apply(variant: Variant, value: Any) -> Variant:
        if low is not None and value < low:
            raise VariantError(f"option {name!r} must be at least {low}, got {value}")
        if choices and value not in choices:
            raise VariantError(f"option {name!r} must be one of {', '.join(choices)}, got {value!r}")
        options = {o for o in variant.options if not o.startswith(name + "=")}
        return replace(variant, options=frozenset(options | {f"{name}={value}"}), **{field_name: value})

    return apply


# --------------------------------------------------------------------- hand values
def _kind_values(
    by_rank: tuple[int, ...], joker: int, overrides: Mapping[int, int] | None = None
) -> tuple[int, ...]:
    values = [by_rank[card % 13 + 1] for card in range(52)] + [joker]
    for card, value in (overrides or {}).items():
        values[card] = value
    return tuple(values)


RHINE_VALUES = _values(15, range(2, 10), 10, (11, 12, 13))
CANASTA_VALUES = _values(20, (5, 5, 5, 5, 5, 5, 10, 10), 10, (10, 10, 10))
PALACE_MELD_VALUES = (*_values(1, range(2, 10), 10, (10, 10, 10))[:14], 11)
PALACE_HAND_VALUES = _values(11, range(2, 10), 10, (10, 10, 10))
STANDARD_VALUES = _values(15, (5,) * 8, 10, (10, 10, 10))


def _suits(*suits: int) -> frozenset[int]:
    return frozenset(make_card(rank, suit) for suit in suits for rank in range(1, 14))


def _rhine_wild_twos(variant: Variant) -> dict[str, Any]:
    twos = [make_card(2, suit) for suit in range(4)]
    values = list(variant.hand_values)
    for two in twos:
        values[two] = 50
    kept = tuple(rule for rule in variant.wilds if rule.card not in twos)
    return {
        "wilds": kept + tuple(WildRule(two, ALL_NATURALS) for two in twos),
        "hand_values": tuple(values),
    }


def _rhine_canasta(variant: Variant) -> dict[str, Any]:
    twos_wild = "rhine.wild_twos" in variant.options
    overrides = {make_card(2, s): 50 for s in range(4)} if twos_wild else None
    return {
        "hand_values": _kind_values(CANASTA_VALUES, 50, overrides),
        "opening_values": CANASTA_VALUES,
        "opening_group_ace": CANASTA_VALUES[1],
    }


#: Extra packs allowed: one already serves the 10-player maximum; the bound keeps a typo from
#: building a deck of millions of cards.
MAX_EXTRA_PACKS = 4


def _extra_packs(variant: Variant, packs: int) -> Variant:
    if not 0 <= packs <= MAX_EXTRA_PACKS:
        raise VariantError(
            f"option 'extra_packs' must be between 0 and {MAX_EXTRA_PACKS} (one pack already seats 10 players), "
            f"got {packs}"
        )
    base = BUILTINS[variant.id]
    options = {o for o in variant.options if not o.startswith("extra_packs=")}
    return replace(
        variant,
        decks=base.decks + packs,
        jokers=base.jokers + 2 * packs,
        max_players=10 if packs else base.max_players,
        options=frozenset(options | {f"extra_packs={packs}"}),
    )


def _standard_decks(variant: Variant, decks: int) -> Variant:
    if decks not in (1, 2):
        raise VariantError(f"option 'decks' must be 1 or 2, got {decks}")
    options = {o for o in variant.options if not o.startswith("decks=")}
    two = decks == 2
    return replace(
        variant,
        decks=decks,
        min_players=5 if two else 2,
        max_players=8 if two else 4,
        group_max=None if two else 4,
        group_distinct_suits=not two,
        options=frozenset(options | {f"decks={decks}"}),
    )


def _rhine_wild_twos_apply(variant: Variant, on: bool) -> Variant:
    variant = _flag("rhine.wild_twos", _rhine_wild_twos)(variant, on)
    if on and "rhine.canasta_values" in variant.options:
        variant = replace(variant, **_rhine_canasta(variant))
    return variant


_ROUNDS = Option(int, _setting("rounds", "rounds", low=1), "number of rounds in a match")
_MAX_TURNS_NOTE = "max_turns is an engine argument, not a rule option"
_INVALID_PLAY_PENALTY = Option(
    int, _setting("invalid_play_penalty", "invalid_play_penalty", low=0), "tiles drawn after a rejected play"
)
_MAX_DEALS = Option(int, _setting("max_deals", "rounds", low=1), "deal cap before the highest total wins")

OPTIONS: dict[str, dict[str, Option]] = {
    "rummikub": {
        "official_jokers": Option(
            bool,
            _flag(
                "official_jokers",
                lambda v: {"joker_policy": "official", "harvested_joker": "new_meld_this_turn"},
            ),
            "official table-joker rule: a joker is taken only by replacing it (§8.2)",
        ),
        "joker_replacement_from": Option(
            str,
            _setting(
                "joker_replacement_from",
                "joker_replacement_from",
                choices=("rack", "rack_or_table"),
            ),
            "where the replacement of a taken joker may come from: rack or rack_or_table (needs official_jokers)",
        ),
        "invalid_play_penalty": _INVALID_PLAY_PENALTY,
        "rounds": _ROUNDS,
    },
    "rhine": {
        "rhine.points_qualify": Option(
            bool,
            _flag(
                "rhine.points_qualify",
                lambda v: {
                    "opening": "points",
                    "opening_single_meld": False,
                    "opening_min_naturals": 0,
                    "opening_wild_value": "represented",
                },
            ),
            "qualify with melds worth 30 points instead of one natural meld (variation 1)",
        ),
        "rhine.wild_twos": Option(bool, _rhine_wild_twos_apply, "every 2 is a wild (variation 2)"),
        "rhine.canasta_values": Option(
            bool, _flag("rhine.canasta_values", _rhine_canasta), "Canasta card values (variation 3)"
        ),
        "extra_packs": Option(int, _extra_packs, "add packs of 52 cards + 2 jokers"),
        "rounds": _ROUNDS,
    },
    "rummy-tiles": {
        "invalid_play_penalty": _INVALID_PLAY_PENALTY,
        "rounds": _ROUNDS,
    },
    "rummy-board": {"rounds": _ROUNDS},
    "rummy-palace": {
        "cyclic_laying": Option(
            bool,
            _flag(
                "cyclic_laying",
                lambda v: {"run_rules": (RunRule(ace_low=True, ace_high=True, wrap=True),) * 4},
            ),
            "runs may wrap around K-A-2",
        ),
        "knocking": Option(
            bool, _flag("knocking", lambda v: {"knocking": True}), "knock for a discard out of turn"
        ),
        "opening_single_meld": Option(
            bool,
            _flag("opening_single_meld", lambda v: {"opening_single_meld": True}),
            "the 30 opening points must come from one meld",
        ),
        "max_rounds": Option(int, _setting("max_rounds", "rounds", low=1), "rounds before the match ends"),
        "max_stock_recycles": Option(
            int,
            _setting("max_stock_recycles", "max_stock_recycles", low=0),
            "times the discard pile is reused",
        ),
    },
    "standard": {
        "decks": Option(int, _standard_decks, "1 deck (2-4 players) or 2 decks (5-8 players)"),
        "max_deals": _MAX_DEALS,
    },
    "black-heart": {
        "max_deals": _MAX_DEALS,
    },
}


# --------------------------------------------------------------------- the built-ins
_JOKER_ANY = WildRule(JOKER, ALL_NATURALS)

RUMMIKUB = Variant(
    id="rummikub",
    name="Rummikub",
    summary="Official Rummikub: 106 tiles, 14 each, open with 30, free rearrangement, winner takes the sum",
    family="play_or_draw",
    decks=2,
    jokers=2,
    hand_size=14,
    wilds=(_JOKER_ANY,),
    opening="points",
    opening_wild_value="represented",
    opening_turn_exclusive=True,
    joker_policy="free",
    hand_values=_kind_values(FACE_VALUES, 30),
    scoring="winner_takes_sum",
    stock_out="cycle_without_play",
)

RHINE = Variant(
    id="rhine",
    name="Rhine Rummy",
    summary="Cards played as Rummikub: qualify with 3 naturals, 1 joker per set, 10 rounds, low score wins",
    family="play_or_draw",
    decks=2,
    jokers=4,
    max_players=6,
    hand_size=10,
    first_player="left_of_dealer",
    group_max=None,
    group_distinct_suits=False,
    run_rules=(RunRule(ace_low=True, ace_high=True),) * 4,
    wilds=(_JOKER_ANY,),
    max_wilds_per_meld=1,
    min_naturals_per_meld=2,
    opening="natural_meld",
    opening_single_meld=True,
    opening_wild_value="forbidden",
    opening_values=RHINE_VALUES,
    opening_group_ace=15,
    opening_min_naturals=3,
    joker_policy="rhine",
    hand_values=_kind_values(RHINE_VALUES, 20),
    scoring="penalty_low",
    low_score_wins=True,
    down_and_out_bonus=-20,
    rounds=10,
    stock_out="end_if_no_play",
)

RUMMY_TILES = Variant(
    id="rummy-tiles",
    name="Tile Rummy",
    summary="Rummikub-style card tiles: 14 each, open with 30 without jokers, locked joker sets",
    family="play_or_draw",
    decks=2,
    jokers=2,
    hand_size=14,
    invalid_play_penalty=3,
    wilds=(_JOKER_ANY,),
    max_wilds_per_meld=1,
    min_naturals_per_meld=2,
    opening="points",
    opening_wild_value="forbidden",
    opening_turn_exclusive=True,
    joker_policy="tiles_locked",
    harvested_joker="new_meld_with_hand_card",
    hand_values=_kind_values(FACE_VALUES, 30),
    scoring="winner_takes_sum",
    stock_out="stalemate_minipool",
)

RUMMY_BOARD = Variant(
    id="rummy-board",
    name="Board Rummy",
    summary="Board-game Rummy: 18 each, at most 12 hand cards a turn, free jokers, one-round game",
    family="play_or_draw",
    decks=2,
    jokers=2,
    hand_size=18,
    max_hand_cards_per_turn=12,
    wilds=(_JOKER_ANY,),
    opening="points",
    opening_wild_value="zero",
    opening_turn_exclusive=True,
    joker_policy="free",
    hand_values=_kind_values(FACE_VALUES, 25),
    scoring="rank_by_hand",
    stock_out="end_on_last_draw",
)

RUMMY_PALACE = Variant(
    id="rummy-palace",
    name="Rummy Palace",
    summary="Draw, meld, discard: 13 each, 30-point first meld, joker swaps, Going Rummy doubles",
    family="draw_meld_discard",
    decks=2,
    jokers=6,
    max_players=6,
    hand_size=13,
    discard_mode="top",
    no_rediscard_of_taken=True,
    go_out_by_discard_only=True,
    run_rules=(RunRule(ace_low=True, ace_high=True),) * 4,
    wilds=(_JOKER_ANY,),
    wilds_le_naturals=True,
    opening="points",
    opening_wild_value="represented",
    opening_values=PALACE_MELD_VALUES,
    opening_group_ace=11,
    manipulation=False,
    joker_policy="swap_exact",
    harvested_joker="replay_this_turn",
    hand_values=_kind_values(PALACE_HAND_VALUES, 20),
    scoring="winner_takes_sum",
    going_rummy_multiplier=2,
    rounds=10,
    game_end="total_at_most",
    game_end_score=-500,
    stock_out="recycle_then_void",
    max_stock_recycles=1,
)

STANDARD = Variant(
    id="standard",
    name="Standard Rummy",
    summary="Classic rummy with a discard row: take a card and all after it, score played minus held",
    family="draw_meld_discard",
    decks=1,
    jokers=0,
    hand_size=10,
    discard_mode="row",
    first_player="left_of_dealer",
    take_must_play=True,
    run_rules=(RunRule(ace_low=True, ace_high=True),) * 4,
    opening="none",
    manipulation=False,
    joker_policy="none",
    harvested_joker="none",
    swap_requires_opened=False,
    hand_values=_kind_values(STANDARD_VALUES, 0),
    scoring="played_minus_held",
    going_out_bonus=25,
    rounds=20,
    game_end="out_with_at_least",
    game_end_score=500,
    stock_out="end_deal",
)

_BH_REMOVED = tuple(make_card(r, HEARTS) for r in (11, 12, 13) for _ in range(2)) + tuple(
    make_card(r, DIAMONDS) for r in range(1, 14) for _ in range(2) if not (r >= 11 and _ == 0)
)
_BH_DECK = frozenset(build_deck(2, 0, _BH_REMOVED))
_JD, _QD, _KD = (make_card(r, DIAMONDS) for r in (11, 12, 13))
_BLACK_COURTS = frozenset(make_card(r, s) for s in (SPADES, CLUBS) for r in (11, 12, 13))

BLACK_HEART = replace(
    STANDARD,
    id="black-heart",
    name="Black Heart Rum",
    summary="Standard rummy with a 75-card deck: black courts need heart escorts, diamonds are wild",
    decks=2,
    removed=_BH_REMOVED,
    max_players=6,
    group_max=None,
    group_distinct_suits=False,
    run_rules=(
        RunRule(ace_low=True, ace_high=True, wrap=True),
        RunRule(ace_low=True, ace_high=False, max_rank=10),
        None,
        RunRule(ace_low=True, ace_high=True, wrap=True),
    ),
    wilds=(
        WildRule(_JD, frozenset(make_card(r, HEARTS) for r in range(1, 11)), True, "a heart A-10 (§6.2)"),
        WildRule(_QD, _suits(SPADES, CLUBS), True, "a spade or a club (§6.2)"),
        WildRule(_KD, _BH_DECK - {_KD}, True, "another card of the 75-card deck (§6.2, §6.7.4)"),
    ),
    escorts=EscortRule(_BLACK_COURTS, frozenset(make_card(r, HEARTS) for r in range(1, 11))),
    royale=RoyaleRule((_JD, _QD, _KD), 150),
    opening="chart",
    opening_chart=(
        ChartStep(-(10**9), 0, 0),
        ChartStep(0, 1, 3),
        ChartStep(100, 1, 4),
        ChartStep(200, 1, 5),
        ChartStep(300, 2, 8),
        ChartStep(400, 2, 9),
        ChartStep(500, 2, 10),
    ),
    joker_policy="diamond_swap",
    harvested_joker="keep_unless_committed",
    swap_requires_opened=False,
    hand_values=_kind_values(STANDARD_VALUES, 0, {_JD: 10, _QD: 15, _KD: 20}),
    black_heart_bonus_per_player=25,
)

#: Per variant, the option that makes a match a single round (deal): what training scripts and
#: benchmarks pass so that one episode is one round.
ONE_ROUND: dict[str, dict[str, int]] = {
    vid: {name: 1}
    for vid, named in OPTIONS.items()
    for name in ("rounds", "max_rounds", "max_deals")
    if name in named
}

BUILTINS: dict[str, Variant] = {
    v.id: v for v in (RUMMIKUB, RHINE, RUMMY_TILES, RUMMY_BOARD, RUMMY_PALACE, STANDARD, BLACK_HEART)
}
VARIANT_IDS: tuple[str, ...] = tuple(BUILTINS)


def get_variant(variant: str | Variant, options: Mapping[str, Any] | Iterable[str] | None = None) -> Variant:
    """The built-in variant with this id (or the variant itself), with options applied."""
    if isinstance(variant, Variant):
        base = variant
    else:
        base_or_none = BUILTINS.get(str(variant).strip().lower())
        if base_or_none is None:
            raise VariantError(f"unknown variant {variant!r} (known: {', '.join(VARIANT_IDS)})")
        base = base_or_none
    return base if options is None else base.with_options(options)
