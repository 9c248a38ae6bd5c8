"""One Gymnasium environment class per built-in variant, each documented in Gymnasium's sections.

The classes differ only in `variant_id` and their docstring; everything else is `RummyEnv`, so
one factory builds them all from a table of (class name, registered id, variant id).
"""

from __future__ import annotations

from rummyai.envs.candidates import FEATURE_WIDTHS, FEATURES
from rummyai.envs.rummy_env import RummyEnv

_SHARED = """
    ## Action Space
    `Discrete(K)` with K = `max_candidates` (default 32). Each decision the environment builds a
    list of at most K candidate moves (`env.unwrapped.candidates`, each with `.move`, `.label`
    and `.features`); action i plays candidate i. Slot 0 always holds the *fallback*: a draw
    where one is legal, otherwise (later in a draw-meld-discard turn) declining a knock, ending
    a deal, or discarding the highest-valued card, else the first legal move (after taking from
    the discards, a meld or lay-off that places the taken card). `observation["action_mask"]` marks the filled
    slots. A masked or out-of-range action never raises: the fallback is played instead and
    `info["illegal_action"]` is True (`info["illegal_actions"]` counts them for the episode).
    Once the match is over a step plays nothing and reads no action.
    Candidates come from `candidates=`: ``"auto"`` (default: ``"solver"`` for the tile-style
    variants, ``"engine"`` for draw-meld-discard), ``"engine"`` (the engine's legal moves - draw,
    new melds from hand, openings, single lay-offs, and each draw-meld-discard operation -
    ranked by cards played, then points, duplicates removed), ``"solver"`` (those plus the
    exact solver's whole-table plays: most cards, most points, jokers held back, one card
    fewer; answers cached by playable hand and table) or any `CandidateBuilder`. Greedy's move
    (a most-cards play, as many cards as the `greedy` agent plays; where several tables tie, its
    layout may differ from the agent's) and the most-points move are always among the candidates, flagged in the `is_greedy` and `is_most_points` columns, when
    `max_candidates` is 3 or more (the fallback and greedy's move come first; with 2 slots the
    second is greedy's move).

    ## Observation Space
    A flat `Dict` of `Box` arrays (no nested spaces, so SB3's `MultiInputPolicy` takes it as it
    is), seats relative to the learner (index 0):
    * the seat's view: `hand`, `table`, `discard` (53 card-kind counts each, the joker last),
      `melds` (one row per table meld: 53 physical counts then 52 counts of the natural cards its
      slots stand for), `discard_depth` (per kind, 1 + cards above its newest copy in the pile or
      row, 0 if absent), `hand_sizes`, `opened`, `scores` (per seat), `stock` (cards left),
      `counters` (turns completed this round, round index), `phase` (one-hot: normal, draw,
      play, knock, give, extra), `taken` and `committed` (53 counts: cards the player to act
      took face up from the discard pile or row this turn, and those that must reach the table
      this turn). Other hands and the stock order are never encoded; the face-up discard pile or
      row is, whole.
    * public history of the round: `history_taken` and `history_laid` (per seat, 53 counts of
      the cards it took from the discards and laid down from hand), `history_turns` (per seat,
      its last 8 turns newest first: stock draws, cards taken from the discards, cards laid; a
      row of zeros is a turn not played yet).
    * `"action_mask"`: `int8` of shape (K,), 1 for a valid slot (only slot 0 once the match is over).
    * `"candidates"`: `float32` of shape (K, {nfeat}), one row per slot (zeros in empty slots):
      {features}.{card_columns}

    ## Starting State
    `reset(seed=...)` draws the engine's deal seed, the learner's seat (when `seat=None`) and
    every opponent's seed from `env.np_random`, so one seed fixes the whole game, opponents
    included. The opponents then play until the learner is to act. With a very small `max_turns`
    the match may end before the learner ever acts: `reset` then returns the finished match (no
    candidate, only slot 0 in the mask) and the first `step` ends the episode with the reward
    held back.

    ## Rewards
    `reward="score"`: the change of the learner's match total during the step (opponents' moves
    included), negated where the lowest total wins, so an episode's return is the learner's
    final total (signed so that higher is better). `reward="shaped"`: that change times 0.01,
    plus 0.05 for each card the learner sheds from its hand, the cards it goes out with included
    (minus 0.05 per card it draws; the hand dealt for a new round counts neither way).

    ## Episode End
    The episode terminates when the match ends under the variant's rules. It is truncated
    instead when the last round was cut by `max_turns` (an engine truncation scored as the
    variant's stock-out ending).

    ## Info
    `reset` and `step` return the same `info` keys:
    * `seat`: the learner's seat (absolute, 0-based).
    * `illegal_action`: True when this step's action was masked or out of range and the
      fallback was played instead (always False from `reset`).
    * `illegal_actions`: how many actions were replaced so far this episode.
    * `num_candidates`: how many candidate moves the new mask offers (0 once the match is
      over, when the mask keeps only slot 0, a no-op).
    * `round`: the index of the round being played (0-based; the last one once the match is over).
    * `scores`: every seat's match total, in absolute seat order (the observation's `scores`
      are relative to the learner).
    * `winners`: the seats that won the match (empty until it is over).

    ## Arguments
    * `num_players`: seats at the table (the variant's limits apply; default 2).
    * `opponents`: one agent name or spec (``"random"``, ``"greedy"``, any registered agent), one
      `Agent` (e.g. `rummyai.envs.PolicyAgent` around a policy, for self-play; the one object
      plays every opponent seat, so give an agent that keeps state per game, such as
      `PolicyAgent`'s rebuilt history, once per seat in a list), one per opponent seat, or a
      weighted mix ``{"greedy": 3, "random": 1}`` drawn per seat every episode.
    * `options`: variant options, e.g. {opts}.
    * `reward`: ``"score"`` (default) or ``"shaped"``.
    * `max_turns`: cut every round after this many turns (default 1,000, which no round comes
      near in play but stops one that could go on forever, such as two Rummy Palace seats taking
      the top discard in turn; None: play rounds out).
    * `render_mode`: ``"ansi"`` (text) or ``"rgb_array"`` (matplotlib, 640x400).
    * `seat`: the learner's seat, or None to draw it each episode.
    * `max_candidates`: K, the number of action slots (2 to 4,096).
    * `candidates`: ``"auto"``, ``"engine"``, ``"solver"`` or a `CandidateBuilder` of your own
      (its lists are checked at every step: at least one candidate, each a finite row of the
      matrix's width).

    ## Version History
    * v2: candidate columns `card_rank`, `card_is_wild`, `card_links`, `card_fits_table`,
      `cards_taken`, so that discards of equal value and takes can be told apart (v1 stays
      registered, with the first {nv1} columns only).
    * v1: flat observation `Dict` (the view's arrays at the top level, no nested ``observation``
      entry); public history arrays; candidate columns `draws`, `jokers_freed`, `holdback`,
      `points_below_best`, `is_greedy`, `is_most_points`; solver candidates by default on the
      tile-style variants; weighted opponent mixes.
    * v0: first version (nested observation, engine candidates by default).
"""

#: Per variant: what the game is, in a sentence, and an example of its options.
DESCRIPTIONS = {
    "rummikub": (
        "Official Rummikub with 106 tiles: 14 each, open with 30 points of new melds, then "
        "rearrange the whole table freely; the first to empty the rack takes the sum of the "
        "others' racks.",
        '``{"official_jokers": True}``',
    ),
    "rhine": (
        "Rhine Rummy: cards played Rummikub-style from a 108-card deck, 10 each, qualify with a "
        "meld of three naturals, at most one joker per meld with its own retrieval rules; 10 "
        "rounds, and the lowest penalty total wins.",
        '``{"rhine.wild_twos": True}``',
    ),
    "rummy-tiles": (
        "Tile Rummy played with cards: 14 each, open with 30 points without jokers, melds "
        "holding a joker are locked until it is retrieved with the card it stands for.",
        '``{"invalid_play_penalty": 0}``',
    ),
    "rummy-board": (
        "The Rummy board game: 18 each, at most 12 hand cards a turn, free jokers worth 0 in the "
        "opening; one round, ranked by what is left in hand.",
        '``{"rounds": 3}``',
    ),
    "rummy-palace": (
        "Rummy Palace: draw from the stock or the discard pile, meld, lay off, swap jokers, then "
        "discard; a 30-point first meld; going out on the opening turn doubles the round.",
        '``{"knocking": True}``',
    ),
    "standard": (
        "Standard rummy with a discard row: draw, or take a row card and everything after it "
        "(the chosen card must be played); score cards played minus cards held.",
        '``{"decks": 2}`` (5-8 players)',
    ),
    "black-heart": (
        "Black Heart Rum: standard rummy on a 75-card deck where black court cards need heart "
        "escorts, diamonds are wild, and a Diamond Royale scores 150.",
        '``{"max_deals": 5}``',
    ),
}


#: The candidate-matrix sentence on the card columns, for the versions that have them.
_CARD_COLUMNS = """ The last five describe the card a discard gives away or a take brings in
      (zero for other moves): its rank (1-13, 0 for a joker), whether it is wild, how many other
      hand naturals share its rank or its suit within two ranks of a run (an ace high or a wrap
      where the variant's runs allow it; 0 for a wild card), whether it alone fits a table meld
      (a lay-off for a seat that has opened: what a discard offers the others), and how many
      cards the take brings (a discard row gives the chosen card and every card after it)."""


def reference(width: int, opts: str) -> str:
    """What every environment shares, in Gymnasium's sections (indented as in a docstring), for a
    candidate matrix of `width` columns; `opts` is the example of the `options` argument."""
    feature_list = ", ".join(f"`{f}`" for f in FEATURES[:width])
    body = _SHARED.replace("{nfeat}", str(width)).replace("{features}", feature_list)
    body = body.replace("{card_columns}", _CARD_COLUMNS if width > FEATURE_WIDTHS[1] else "")
    body = body.replace("{nv1}", str(FEATURE_WIDTHS[1]))
    return body.replace("{opts}", opts)


def _doc(variant_id: str, env_id: str, width: int) -> str:
    description, opts = DESCRIPTIONS[variant_id]
    body = reference(width, opts)
    return (
        f"`{env_id}`: {description}\n\n"
        "    ## Description\n"
        f"    The learner plays one seat of a `{variant_id}` match against seeded opponents that move\n"
        "    inside `step`. Each step is one decision of the learner (a whole turn in the tile games;\n"
        "    one operation - draw, meld, lay-off, swap, discard - in the draw-meld-discard games).\n"
        '    Create it with `gymnasium.make("' + env_id + '")` after `import rummyai.envs`.\n' + body
    )


def _env_class(class_name: str, env_id: str, variant_id: str, width: int) -> type[RummyEnv]:
    """A `RummyEnv` subclass bound to one variant, documented for it, importable by its name."""
    attributes = {
        "__doc__": _doc(variant_id, env_id, width),
        "__module__": __name__,
        "__qualname__": class_name,
        "variant_id": variant_id,
        "feature_width": width,
    }
    return type(class_name, (RummyEnv,), attributes)


#: The environments' current version.
CURRENT = max(FEATURE_WIDTHS)

#: (class name, id without its version, variant id) of every environment.
_TABLE = (
    ("RummikubEnv", "rummyai/Rummikub", "rummikub"),
    ("RhineEnv", "rummyai/Rhine", "rhine"),
    ("RummyTilesEnv", "rummyai/RummyTiles", "rummy-tiles"),
    ("RummyBoardEnv", "rummyai/RummyBoard", "rummy-board"),
    ("RummyPalaceEnv", "rummyai/RummyPalace", "rummy-palace"),
    ("StandardRummyEnv", "rummyai/StandardRummy", "standard"),
    ("BlackHeartEnv", "rummyai/BlackHeart", "black-heart"),
)

#: Registered id -> environment class, for every version in `FEATURE_WIDTHS`: the current ``-v2``
#: ids (class names as in `_TABLE`) and the ``-v1`` ids (class names ending in ``V1``), whose
#: candidate matrix lacks `CARD_FEATURES`.
ENV_CLASSES: dict[str, type[RummyEnv]] = {
    f"{name}-v{version}": _env_class(
        class_name if version == CURRENT else f"{class_name}V{version}",
        f"{name}-v{version}",
        variant_id,
        width,
    )
    for version, width in sorted(FEATURE_WIDTHS.items(), reverse=True)
    for class_name, name, variant_id in _TABLE
}
#: The current id of each variant's environment.
CURRENT_IDS: dict[str, str] = {variant_id: f"{name}-v{CURRENT}" for _, name, variant_id in _TABLE}

# The classes by name, for imports, pickling and Gymnasium's ``module:Class`` entry points.
globals().update({cls.__qualname__: cls for cls in ENV_CLASSES.values()})
RummikubEnv = ENV_CLASSES["rummyai/Rummikub-v2"]
RhineEnv = ENV_CLASSES["rummyai/Rhine-v2"]
RummyTilesEnv = ENV_CLASSES["rummyai/RummyTiles-v2"]
RummyBoardEnv = ENV_CLASSES["rummyai/RummyBoard-v2"]
RummyPalaceEnv = ENV_CLASSES["rummyai/RummyPalace-v2"]
StandardRummyEnv = ENV_CLASSES["rummyai/StandardRummy-v2"]
BlackHeartEnv = ENV_CLASSES["rummyai/BlackHeart-v2"]
