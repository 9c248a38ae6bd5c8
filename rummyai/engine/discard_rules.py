"""Rules of the draw-meld-discard family as steps on a working copy of the round.

`step(work, move)` applies one move or raises `Illegal` at the first broken rule (citing
docs/rules): draws and TAKE(i) with its committed card, new melds, lay-offs, opening bundles
(points or chart, Black Heart), joker and diamond swaps, discards, knocks, stock recycling and
round scoring. `can_place_work` answers whether a card has a legal play this turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np

from rummyai.cards import Meaning, card_str, rank_of, suit_of
from rummyai.engine.discard_melds import (
    Illegal,
    Requirement,
    analyze,
    check_layoff,
    fail,
    ids_value,
    meld_value,
    normalize,
    requirement,
)
from rummyai.engine.discard_moves import (
    DeclineKnock,
    DiamondSwap,
    Discard,
    EndDeal,
    JokerSwap,
    Knock,
    LayOff,
    MeldCards,
    Opening,
    Placement,
    TakeDiscard,
)
from rummyai.engine.discard_search import (
    copies_from,
    layoff_candidates,
    layoff_chain,
    meld_candidates,
    opening_bundles,
)
from rummyai.engine.moves import Draw, Move, Violation
from rummyai.engine.state import GameState, RoundEnd, RoundResult, RoundState, TableMeld
from rummyai.variants import Variant

Phase = Literal["draw", "play", "knock"]


@dataclass(frozen=True)
class DiscardData:
    """Turn bookkeeping kept in `RoundState.family_data`.

    `taken`: ids taken from the discard pile/row this turn; `committed`: ids that must reach the
    table this turn; `locked`: ids that may not be discarded this turn; `fresh`: the player had
    made no play this round before this turn; `opened_now`/`played_now`: they opened / played
    this turn; `knock_queue`: seats still to be asked (Palace `knocking`), `next_turn` plays after.
    `escort_credit`: (escort id, seat) for table escorts credited to another seat than the core
    card they escort (its diamond was swapped out by someone else, §6.5); kept for the round.
    """

    phase: Phase = "draw"
    taken: tuple[int, ...] = ()
    committed: tuple[int, ...] = ()
    locked: tuple[int, ...] = ()
    fresh: bool = True
    opened_now: bool = False
    played_now: bool = False
    knock_queue: tuple[int, ...] = ()
    next_turn: int = 0
    escort_credit: tuple[tuple[int, int], ...] = ()


@dataclass
class _Bundle:
    """New melds made in one opening bundle, and whether a lay-off came before the opening."""

    infos: list[Any] = field(default_factory=list)
    early_layoff: bool = False


class Work:
    """A mutable working copy of the round; moves are tried on it and frozen back if legal."""

    def __init__(self, state: GameState, rng: np.random.Generator | None = None) -> None:
        r = state.round
        self.variant = state.variant
        self.n = state.num_players
        self.scores = state.scores
        self.dealer = r.dealer
        self.turn = r.turn
        self.hands = [list(h) for h in r.hands]
        self.table = list(r.table)
        self.stock = list(r.stock)
        self.discard = list(r.discard)
        self.opened = list(r.opened)
        self.played = list(r.played_before)
        self.credited = list(r.credited)
        self.turn_count = r.turn_count
        self.passes = r.passes
        self.recycles = r.recycles
        self.data: DiscardData = r.family_data if r.family_data is not None else DiscardData()
        self.result = r.result
        self._rng = rng

    @property
    def rng(self) -> np.random.Generator:
        """The move's generator (a fixed one while only validating)."""
        if self._rng is None:
            self._rng = np.random.default_rng(0)
        return self._rng

    def freeze(self) -> RoundState:
        return RoundState(
            dealer=self.dealer,
            turn=self.turn,
            hands=tuple(tuple(h) for h in self.hands),
            table=tuple(self.table),
            stock=tuple(self.stock),
            discard=tuple(self.discard),
            opened=tuple(self.opened),
            played_before=tuple(self.played),
            turn_count=self.turn_count,
            passes=self.passes,
            recycles=self.recycles,
            credited=tuple(self.credited),
            family_data=self.data,
            result=self.result,
        )

    @property
    def hand(self) -> list[int]:
        return self.hands[self.turn]

    def token(self, card_id: int) -> str:
        return card_str(self.variant.deck[card_id])


# --------------------------------------------------------------------------- the steps
def step(w: Work, move: Move) -> None:
    """Apply `move` to the working round or raise `Illegal` at the first broken rule."""
    v = w.variant
    if w.result is not None:
        raise fail(v, "end", "the round is over")
    phase = w.data.phase
    if phase == "knock":
        _knock_step(w, move)
    elif phase == "draw":
        _draw_step(w, move)
    elif isinstance(move, Discard):
        _discard(w, move)
    elif isinstance(move, MeldCards | LayOff | Opening | JokerSwap | DiamondSwap):
        _play_step(w, move)
    elif isinstance(move, Draw | TakeDiscard):
        raise fail(v, "turn", "the player has already drawn this turn")
    else:
        raise fail(v, "turn", f"{type(move).__name__} is not a move of the play phase")


def _knock_step(w: Work, move: Move) -> None:
    v = w.variant
    asked = w.data.knock_queue[0]
    if not isinstance(move, Knock | DeclineKnock):
        raise fail(v, "knock", f"seat {asked} is asked whether to knock first")
    if move.seat != asked:
        raise fail(v, "knock", f"seat {asked} is asked first, not seat {move.seat}")
    if isinstance(move, DeclineKnock):
        rest = w.data.knock_queue[1:]
        if rest:
            w.turn = rest[0]
            w.data = replace(w.data, knock_queue=rest)
        else:
            _start_turn(w, w.data.next_turn)
        return
    if not w.stock or not w.discard:
        raise fail(v, "knock", "a knock needs a discard to take and a stock card for the penalty")
    w.hands[asked].append(w.discard.pop())
    w.hands[asked].append(w.stock.pop())
    _recycle(w)
    _start_turn(w, w.data.next_turn, after_knock=True)


def _draw_step(w: Work, move: Move) -> None:
    v = w.variant
    if isinstance(move, Draw):
        if not w.stock:
            raise fail(v, "turn", "the stock is empty")
        w.hand.append(w.stock.pop())
        _recycle(w)
        w.data = replace(w.data, phase="play")
    elif isinstance(move, TakeDiscard):
        _take(w, move.index)
    elif isinstance(move, EndDeal):
        if v.stock_out != "end_deal" or w.stock:
            raise fail(v, "end", "a deal ends this way only when the draw pile is empty")
        end_round(w, None, "stock_exhausted")
    else:
        raise fail(v, "turn", f"a turn starts with a draw, not {type(move).__name__}")


def _take(w: Work, index: int) -> None:
    v = w.variant
    if v.discard_mode == "none" or not w.discard:
        raise fail(v, "turn", "there is no discard to take")
    if v.discard_mode == "top" and index != len(w.discard) - 1:
        raise fail(v, "turn", "only the top card of the discard pile may be taken")
    if not 0 <= index < len(w.discard):
        raise fail(v, "turn", f"no discard at index {index} (the row holds {len(w.discard)})")
    taken = w.discard[index:]
    del w.discard[index:]
    w.hand.extend(taken)
    committed = (taken[0],) if v.take_must_play else ()
    w.data = replace(w.data, phase="play", taken=tuple(taken), committed=committed)
    if committed and not can_place_work(w, taken[0]):
        raise fail(
            v,
            "turn",
            f"{w.token(taken[0])} must be played this turn after taking it, and it has no legal play",
        )


def _discard(w: Work, move: Discard) -> None:
    v = w.variant
    card = move.card
    if card not in w.hand:
        raise fail(v, "turn", f"card id {card} is not in the hand")
    # §7.1: the discarded copy is read as the held copy of its kind with the fewest duties
    lightest = min((c for c in w.hand if v.deck[c] == v.deck[card]), key=lambda c: _duties(w.data, c))
    if _duties(w.data, lightest) < _duties(w.data, card):
        _swap_duties(w, card, lightest)
    if card in w.data.committed:
        raise fail(
            v, "turn", f"{w.token(card)} was taken from the row and must be put on the table, not discarded"
        )
    pending = [c for c in w.data.committed if c in w.hand]
    if pending:
        raise fail(v, "turn", f"{w.token(pending[0])} must reach the table before the discard")
    if v.no_rediscard_of_taken and card in w.data.taken:
        raise fail(
            v, "turn", f"{w.token(card)} was just taken from the discard pile and may not be discarded"
        )
    if card in w.data.locked:
        raise fail(v, "turn", f"the joker {w.token(card)} gained by a swap may not be discarded")
    w.hand.remove(card)
    w.discard.append(card)
    if not w.hand:
        end_round(w, w.turn, "out")
        return
    _end_turn(w)


def _play_step(w: Work, move: MeldCards | LayOff | Opening | JokerSwap | DiamondSwap) -> None:
    if isinstance(move, JokerSwap):
        _joker_swap(w, move)
    elif isinstance(move, DiamondSwap):
        _diamond_swap(w, move)
    else:
        _placement(w, move)
    _after_play(w)


def _placement(w: Work, move: Placement) -> None:
    if isinstance(move, MeldCards):
        _meld(w, move.meld, None)
    elif isinstance(move, LayOff):
        _layoff(w, move, None)
    else:
        _opening(w, move)


def _take_from_hand(w: Work, ids: list[int]) -> None:
    hand = w.hand
    if len(set(ids)) != len(ids):
        raise fail(w.variant, "turn", "a card id appears twice in the play")
    for i in ids:
        if i not in hand:
            raise fail(w.variant, "turn", f"card id {i} is not in the hand")
    for i in ids:
        hand.remove(i)


def _placed(w: Work, ids: list[int]) -> None:
    _read_played(w, ids)
    committed = tuple(c for c in w.data.committed if c not in ids)
    w.data = replace(w.data, committed=committed, played_now=True)


def _read_played(w: Work, ids: Sequence[int]) -> None:
    """§7.1: each card that just left the hand for the table is read as the held copy of its kind
    with the most duties (the copies it leaves in hand are the freer ones)."""
    for i in ids:
        held = [c for c in w.hand if w.variant.deck[c] == w.variant.deck[i]]
        heaviest = max(held, key=lambda c: _duties(w.data, c), default=None)
        if heaviest is not None and _duties(w.data, heaviest) > _duties(w.data, i):
            _swap_duties(w, i, heaviest)


def _duties(data: DiscardData, card: int) -> int:
    """How much a held copy is bound: must reach the table (4), taken this turn (2), a joker gained
    by a swap (1). Identical copies are told apart by these duties only (§7.1)."""
    return 4 * (card in data.committed) + 2 * (card in data.taken) + (card in data.locked)


def _swap_duties(w: Work, a: int, b: int) -> None:
    """Exchange the turn's duties of two identical copies `a` and `b`."""

    def swapped(ids: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(b if c == a else a if c == b else c for c in ids)

    d = w.data
    w.data = replace(d, taken=swapped(d.taken), committed=swapped(d.committed), locked=swapped(d.locked))


def _open(w: Work) -> None:
    w.opened[w.turn] = True
    w.data = replace(w.data, opened_now=True)


def _meld(w: Work, meld: TableMeld, bundle: _Bundle | None) -> None:
    v, seat = w.variant, w.turn
    ids = meld.all_ids()
    for i in ids:
        if i not in w.hand:
            raise fail(v, "turn", f"card id {i} is not in the hand")
    _meanings_stated(w, meld, set(meld.ids))
    normalized, info = normalize(v, meld, (seat,) * len(meld.ids))
    if not w.opened[seat]:
        req = requirement(v, w.scores[seat])
        if req is None:
            _open(w)
        elif bundle is None:
            if req.met_by(v, [info]):
                _open(w)
            elif not _black_heart_out(w, ids):
                raise fail(v, "opening", f"the opening needs {req.describe()}; '{info}' falls short")
        else:
            bundle.infos.append(info)
            if req.met_by(v, bundle.infos):
                _open(w)
    _take_from_hand(w, ids)
    w.table.append(normalized)
    w.credited[seat] += meld_value(v, normalized, info)
    _placed(w, ids)


def _layoff(w: Work, move: LayOff, bundle: _Bundle | None) -> None:
    v, seat = w.variant, w.turn
    if not w.opened[seat]:
        if requirement(v, w.scores[seat]) is None:
            _open(w)  # §6.4 score < 0: any first play opens, a lay-off too
        elif bundle is not None:
            bundle.early_layoff = True
        elif not _black_heart_out(w, move.meld.all_ids()):
            raise fail(v, "opening", "lay-offs are allowed only after the opening")
    if not 0 <= move.target < len(w.table):
        raise fail(v, "turn", f"no table meld {move.target}")
    _meanings_stated(w, move.meld, set(move.meld.ids) - set(w.table[move.target].ids))
    normalized, _, added = check_layoff(v, w.table[move.target], move.meld, w.hand, seat)
    _take_from_hand(w, added)
    w.table[move.target] = normalized
    w.credited[seat] += ids_value(v, added)
    _placed(w, added)


def _meanings_stated(w: Work, meld: TableMeld, new: set[int]) -> None:
    """Palace §4.3/§4.8.3: where swaps bind a joker to its meaning (`swap_exact`), every joker put
    down states it: an exact card in a run (``JK=9H``), at least the rank in a group (``JK=9``)."""
    v = w.variant
    if not v.joker_rules.exact_swaps or len(meld.meanings) != len(meld.ids):
        return
    for i, meaning in zip(meld.ids, meld.meanings, strict=True):
        if i in new and meaning is None and v.always_wild(v.deck[i]):
            raise fail(
                v, "meld", f"the meaning of {w.token(i)} must be stated (JK=9H in a run, JK=9 in a group)"
            )


def plays_freely(w: Work) -> bool:
    """Whether the seat to act may meld and lay off without an opening: it has opened, or its
    score asks for none (Black Heart §6.4 below 0, Standard §5.2), so any first play opens."""
    seat = w.turn
    return w.opened[seat] or requirement(w.variant, w.scores[seat]) is None


def _black_heart_out(w: Work, ids: list[int]) -> bool:
    """Black Heart (§6.6): a play that empties the hand needs no opening (when the variant has it)."""
    v = w.variant
    if v.black_heart_bonus_per_player <= 0 or v.go_out_by_discard_only:
        return False
    return not set(w.hand) - set(ids)


def _opening(w: Work, move: Opening) -> None:
    v, seat = w.variant, w.turn
    if not move.plays:
        raise fail(v, "opening", "an opening bundle holds at least one meld")
    bundle = _Bundle()
    was_open = w.opened[seat]
    for play in move.plays:
        if isinstance(play, MeldCards):
            _meld(w, play.meld, bundle)
        elif isinstance(play, LayOff):
            _layoff(w, play, bundle)
        else:
            raise fail(v, "opening", "an opening bundle holds melds and lay-offs only")
    if was_open:
        return
    black_heart = not w.hand and v.black_heart_bonus_per_player > 0 and not v.go_out_by_discard_only
    if black_heart:
        return
    if not w.opened[seat]:
        req = requirement(v, w.scores[seat])
        need = req.describe() if req is not None else "an opening"
        raise fail(v, "opening", f"these melds do not meet the opening: it needs {need}")
    if bundle.early_layoff:
        raise fail(v, "opening", "the opening melds come before any lay-off")


def _joker_swap(w: Work, move: JokerSwap) -> None:
    v, seat = w.variant, w.turn
    if not v.joker_rules.exact_swaps:
        raise fail(v, "swap", f"there are no joker swaps in {v.id}")
    if not w.opened[seat]:
        raise fail(v, "swap", "a joker swap needs the first meld")
    old = _target(w, move.target)
    info = analyze(v, old)
    if move.joker not in old.ids:
        raise fail(v, "swap", f"card id {move.joker} is not in table meld {move.target}")
    k = old.ids.index(move.joker)
    meaning = old.meanings[k]
    if meaning is None or not v.always_wild(v.deck[move.joker]):
        raise fail(v, "swap", f"{w.token(move.joker)} in meld {move.target} is not a joker")
    r = move.replacement
    if r not in w.hand:
        raise fail(v, "swap", f"replacement id {r} is not in the hand")
    kind = v.deck[r]
    if v.is_wild(kind):
        raise fail(v, "swap", "a joker is replaced by a natural card")
    if info.kind == "run" and kind != info.meant(k):
        raise fail(v, "swap", f"{card_str(kind)} does not match the joker's meaning {meaning}")
    if info.kind == "group" and rank_of(kind) != info.rank:
        raise fail(v, "swap", f"{card_str(kind)} is not of the group's rank")
    new = replace(old, ids=put(old.ids, k, r), meanings=put(old.meanings, k, None))
    credit = put(old.credit, k, seat) if old.credit else (seat,) * len(old.ids)
    try:
        normalized, _ = normalize(v, new, credit)
    except Illegal as error:
        raise fail(v, "swap", f"the swap leaves an invalid meld: {error.violation.reason}") from None
    joker_kind = v.deck[move.joker]
    before = sum(1 for c in w.hand if v.deck[c] == joker_kind)
    w.hand.remove(r)
    _read_played(w, [r])
    w.hand.append(move.joker)
    w.table[move.target] = normalized
    if old.credit and old.credit[k] >= 0:
        w.credited[old.credit[k]] -= ids_value(v, [move.joker])
    w.credited[seat] += ids_value(v, [r])
    w.data = replace(w.data, locked=(*w.data.locked, move.joker))
    _placement(w, move.place)
    if sum(1 for c in w.hand if v.deck[c] == joker_kind) > before:  # any copy may be the one laid (§7.1)
        raise fail(v, "swap", "the swapped joker must go back on the table in the same action")


def _diamond_swap(w: Work, move: DiamondSwap) -> None:
    v, seat = w.variant, w.turn
    if not v.joker_rules.diamond_swaps:
        raise fail(v, "swap", f"there are no diamond swaps in {v.id}")
    old = _target(w, move.target)
    info = analyze(v, old)
    if info.kind == "royale":
        raise fail(v, "swap", "a diamond in a Diamond Royale can never be swapped")
    d, r = move.diamond, move.replacement
    if not v.is_wild(v.deck[d]):
        raise fail(v, "swap", f"{w.token(d)} is not a table diamond")
    if r not in w.hand or r == d:
        raise fail(v, "swap", f"replacement id {r} is not in the hand")
    kind = v.deck[r]
    _read_replacement(w, r, placed=move.place is not None)
    escorts = old.escorts or (None,) * len(old.ids)
    rule = v.escorts
    new_escort: int | None = None
    placed_escort: int | None = None  # a heart this swap puts in as the escort of another's core card
    if d in old.ids:
        k = old.ids.index(d)
        if info.kind == "group" and rank_of(kind) != info.rank:
            raise fail(v, "swap", f"{card_str(kind)} is not of the group's rank")
        if info.kind == "run" and kind != info.meant(k):
            raise fail(v, "swap", f"{card_str(kind)} is not the card the diamond stands for")
        escort = escorts[k]
        needs = rule is not None and kind in rule.needs_escort
        if needs and escort is None:
            if move.escort is None or move.escort not in w.hand or move.escort == r:
                raise fail(v, "escort", f"{card_str(kind)} needs a heart escort from the hand")
            escort = new_escort = move.escort
        elif move.escort is not None:
            raise fail(v, "swap", "no new escort is needed for this swap")
        meaning = swap_meaning(v, kind, escort)
        new = replace(
            old,
            ids=put(old.ids, k, r),
            meanings=put(old.meanings, k, meaning),
            escorts=put(escorts, k, escort),
        )
        credit_seat = old.credit[k] if old.credit else -1
        kept_escort = escorts[k] if new_escort is None else None
    elif d in escorts:
        k = escorts.index(d)
        if rule is None or kind not in rule.escorts or v.is_wild(kind):
            raise fail(v, "swap", "a diamond acting as an escort is replaced by a heart")
        if move.escort is not None:
            raise fail(v, "swap", "no new escort is needed for this swap")
        new = replace(old, escorts=put(escorts, k, r))
        credit_seat = dict(w.data.escort_credit).get(d, old.credit[k] if old.credit else -1)
        kept_escort = None
        if not old.credit or old.credit[k] != seat:
            placed_escort = r
    else:
        raise fail(v, "swap", f"{w.token(d)} is not in table meld {move.target}")
    # §6.5 credit: the swapper is credited with c; when only an escort is replaced, the core card
    # it escorts stays credited to whoever placed it (the seat totals move by the cards themselves)
    if d in old.ids or not old.credit:
        credit = put(old.credit, k, seat) if old.credit else (seat,) * len(old.ids)
    else:
        credit = old.credit
    try:
        normalized, _ = normalize(v, new, credit)
    except Illegal as error:
        raise fail(v, "swap", f"the swap leaves an invalid meld: {error.violation.reason}") from None
    gained = [r] + ([new_escort] if new_escort is not None else [])
    _take_from_hand(w, gained)
    if new_escort is not None:
        # §7.1: the escort laid is the held heart with the most duties
        _read_played(w, [new_escort])
    w.hand.append(d)
    w.table[move.target] = normalized
    if credit_seat >= 0:
        w.credited[credit_seat] -= ids_value(v, [d])
    w.credited[seat] += ids_value(v, gained)
    # §6.5: only a committed replacement passes its duty to the diamond; a committed heart put in
    # as the new escort is placed by the swap itself (§6.7.6)
    must_place = r in w.data.committed
    committed = tuple(c for c in w.data.committed if c not in gained)
    if must_place:
        committed = (*committed, d)
    w.data = replace(
        w.data,
        committed=committed,
        escort_credit=_escort_credit(w, d, kept_escort, credit_seat, placed_escort),
    )
    if move.place is not None:
        _placement(w, move.place)
    if must_place and d in w.hand:
        raise fail(
            v, "swap", f"{w.token(d)} must be placed again at once: the replacement was the committed card"
        )


def _read_replacement(w: Work, r: int, placed: bool) -> None:
    """§7.1 for a diamond swap's replacement `r` when the hand holds another copy of its kind and
    one of the two is committed: laying the committed copy passes its duty to the diamond, which
    must then be placed in the same action; laying the other leaves the duty on the copy still
    held. The swap is read the way that can pass, whichever id the move names: as the committed
    copy when the move places the diamond (its duty is then met, and the copy left in hand is
    free), as the free one when it does not."""
    committed = w.data.committed
    kind = w.variant.deck[r]
    for other in w.hand:
        if other != r and w.variant.deck[other] == kind and (other in committed) != (r in committed):
            if (r in committed) != placed:
                _swap_duties(w, r, other)
            return


def _escort_credit(
    w: Work, d: int, kept: int | None, placer: int, placed: int | None
) -> tuple[tuple[int, int], ...]:
    """The round's escorts credited to another seat than the core card they escort, after diamond
    `d` left the table: an escort `kept` while its core diamond went stays credited to whoever
    placed it (`placer`, unless recorded otherwise), now that the core slot is the swapper's; an
    escort `placed` by the swapper beside another seat's core card is the swapper's. Diamond
    escorts need the entry to be swapped out again (§6.5), the others so that the view can say
    whose every escort is."""
    credits = dict(w.data.escort_credit)
    credits.pop(d, None)
    if kept is not None and kept not in credits and placer >= 0 and placer != w.turn:
        credits[kept] = placer
    if placed is not None:
        credits[placed] = w.turn
    return tuple(sorted(credits.items()))


def _target(w: Work, index: int) -> TableMeld:
    if not 0 <= index < len(w.table):
        raise fail(w.variant, "swap", f"no table meld {index}")
    return w.table[index]


def put(values: tuple[Any, ...], k: int, value: Any) -> tuple[Any, ...]:
    """`values` with entry k replaced."""
    return (*values[:k], value, *values[k + 1 :])


def _discardable(w: Work, card: int) -> bool:
    data = w.data
    if card in data.committed or card in data.locked:
        return False
    return not (w.variant.no_rediscard_of_taken and card in data.taken)


def _after_play(w: Work) -> None:
    v = w.variant
    if v.go_out_by_discard_only:
        if not w.hand:
            raise fail(v, "turn", "a card must be kept for the final discard")
        if not any(_discardable(w, c) for c in w.hand):
            raise fail(v, "turn", "this play leaves no card that may be discarded")
    if not w.hand:
        end_round(w, w.turn, "out", by_play=True)
        return
    for card in w.data.committed:
        if card in w.hand and not can_place_work(w, card):
            raise fail(
                v, "turn", f"this play leaves {w.token(card)}, which must be played this turn, no play"
            )


# --------------------------------------------------------------------------- turn flow
def _recycle(w: Work) -> None:
    """Palace §4.6: an empty stock is rebuilt at once from the discard pile minus its top card."""
    v = w.variant
    if w.stock or w.recycles >= v.max_stock_recycles or len(w.discard) < 2:
        return
    cards = w.discard[:-1]
    order = w.rng.permutation(len(cards))
    w.stock = [cards[int(i)] for i in order]
    w.discard = w.discard[-1:]
    w.recycles += 1


def _end_turn(w: Work) -> None:
    v, seat = w.variant, w.turn
    w.played[seat] = w.played[seat] or w.data.played_now
    w.turn_count += 1
    q = (seat + 1) % w.n
    if v.knocking and w.stock and w.discard:
        order = [(q + k) % w.n for k in range(1, w.n)]
        queue = tuple(s for s in order if s != seat and w.opened[s])
        if queue:
            w.turn = queue[0]
            w.data = DiscardData(
                phase="knock", knock_queue=queue, next_turn=q, escort_credit=w.data.escort_credit
            )
            return
    _start_turn(w, q)


def _start_turn(w: Work, seat: int, after_knock: bool = False) -> None:
    """Begin `seat`'s turn at its draw; Palace §4.6 ends the round here when the stock is empty and
    cannot be rebuilt, except that q still plays after a knock (§4.7) while a recycle is left and
    the pile holds a card: taking it is q's only draw."""
    w.turn = seat
    w.data = DiscardData(
        phase="draw", fresh=not w.played[seat], next_turn=seat, escort_credit=w.data.escort_credit
    )
    v = w.variant
    if not w.stock and v.stock_out == "recycle_then_void":
        _recycle(w)
        q_plays = after_knock and w.discard and w.recycles < v.max_stock_recycles
        if not w.stock and not q_plays:
            end_round(w, None, "void")


def end_round(w: Work, winner: int | None, reason: RoundEnd, by_play: bool = False) -> None:
    """Score the round (§4.6, §5.4, §6.6) and record the result."""
    v, data = w.variant, w.data
    held = [ids_value(v, h) for h in w.hands]
    detail = ""
    if v.scoring == "played_minus_held":
        scores = [c - h for c, h in zip(w.credited, held, strict=True)]
        if winner is not None:
            scores[winner] += v.going_out_bonus
            if by_play and data.fresh and v.black_heart_bonus_per_player:
                scores[winner] += v.black_heart_bonus_per_player * w.n
                detail = "Black Heart"
    elif winner is None:
        scores = [-h for h in held]
    else:
        multiplier = 1
        if data.fresh and data.opened_now and v.going_rummy_multiplier != 1:
            multiplier = v.going_rummy_multiplier
            detail = "Going Rummy"
        scores = [-h * multiplier for h in held]
        scores[winner] = sum(h for s, h in enumerate(held) if s != winner) * multiplier
    w.played[w.turn] = w.played[w.turn] or data.played_now
    w.result = RoundResult(winner, tuple(scores), reason, detail)


# --------------------------------------------------------------------------- placement search
FREE_SWAPS = 3  # diamond swaps a placement search may make first (there are three diamonds)


def can_place_work(w: Work, card: int, swaps: int = FREE_SWAPS) -> bool:
    """Whether `card` (in the player's hand) has some legal play this turn: a lay-off or a new
    meld once opened, else an opening bundle holding it; or, after up to `swaps` diamond swaps,
    one that puts it on the table while the diamond it frees can be placed, or one that frees a
    diamond to play it with. Answers are cached per position."""
    v, seat = w.variant, w.turn
    cache: dict[Any, bool] = v.__dict__.setdefault("_dmd_place_cache", {})
    key = (tuple(sorted(w.hand)), tuple(w.table), w.opened[seat], w.scores[seat], card, swaps)
    hit = cache.get(key)
    if hit is None:
        if len(cache) > 50_000:
            cache.clear()
        hit = cache[key] = _can_place(w, card) or (swaps > 0 and _can_place_after_swap(w, card, swaps))
    return hit


def _can_place(w: Work, card: int) -> bool:
    """Whether `card` has a play on the table as it stands (no diamond swap first)."""
    v, seat = w.variant, w.turn
    hand = w.hand
    if plays_freely(w):
        if layoff_candidates(v, hand, w.table, seat, must=card):
            return True
        if meld_candidates(v, hand, must=card, limit=4):
            return True
        return bool(layoff_chain(v, hand, w.table, seat, card))  # §5.2: other lay-offs first, then card
    req = requirement(v, w.scores[seat])
    assert req is not None  # plays_freely covers a seat without an opening requirement
    candidates = meld_candidates(v, hand, prefer=card)
    if opening_bundles(v, req, candidates, hand, must=card, limit=1):
        return True
    return bool(black_heart_moves(w, [m for m, _ in candidates]) or open_then_place(w, req, card, limit=1))


def _can_place_after_swap(w: Work, card: int, swaps: int) -> bool:
    """Whether a diamond swap (§6.5) leads to a play of `card`: the swap puts it down itself (as
    the replacement, whose freed diamond must then be placed, or as the new escort), or another
    card frees a diamond, after which `card` has a play (possibly after further swaps)."""
    if not w.variant.joker_rules.diamond_swaps:
        return False
    for option in diamond_swap_options(w, (card,)):
        if option[3] == card:  # the swap itself puts the committed heart down as the new escort
            return True
        if option[2] == card:
            if placements(after_swap(w, option), option[1], limit=1):
                return True
        elif can_place_work(after_swap(w, option), card, swaps - 1):
            return True
    return False


def can_place(state: GameState, card: int) -> bool:
    """Whether the seat to act could put hand card `card` on the table this turn."""
    return can_place_work(Work(state), card)


def violation(state: GameState, move: Move) -> Violation | None:
    """The first rule `move` breaks in `state`, or None."""
    try:
        step(Work(state), move)
    except Illegal as error:
        return error.violation
    return None


# --------------------------------------------------------------------------- placements and swap options
def opening_moves(v: Variant, req: Requirement, hand: list[int], must: int | None) -> list[Move]:
    """Opening bundles from the hand (holding `must` if given) as moves."""
    candidates = meld_candidates(v, hand, prefer=must)
    moves: list[Move] = []
    for bundle in opening_bundles(v, req, candidates, hand, must=must):
        if len(bundle) == 1:
            moves.append(MeldCards(bundle[0]))
        else:
            moves.append(Opening(tuple(MeldCards(m) for m in bundle)))
    return moves


OPENINGS_BEFORE_PLACING = 24  # opening bundles `open_then_place` tries before giving up


def _opening_cost(v: Variant, bundle: tuple[TableMeld, ...]) -> tuple[int, int]:
    """Wilds, then cards, an opening bundle takes from the hand (fewer leave more to play with)."""
    ids = [i for m in bundle for i in m.all_ids()]
    return sum(v.is_wild(v.deck[i]) for i in ids), len(ids)


def open_then_place(
    w: Work, req: Requirement, card: int, limit: int = 2
) -> list[tuple[tuple[TableMeld, ...], tuple[MeldCards | LayOff, ...]]]:
    """Openings made without hand card `card`, each with the plays that put `card` down later in
    the same turn (a lay-off, possibly onto the new melds and after laying off the cards between,
    or a further meld): after the opening anything goes (§6.4), so a committed card need not be
    part of the opening bundle itself."""
    v, seat = w.variant, w.turn
    rest = [c for c in w.hand if c != card]
    out: list[tuple[tuple[TableMeld, ...], tuple[MeldCards | LayOff, ...]]] = []
    bundles = opening_bundles(v, req, meld_candidates(v, rest), rest, limit=OPENINGS_BEFORE_PLACING)
    # the openings that use the fewest wilds and cards leave the most to place `card` with
    bundles.sort(key=lambda bundle: _opening_cost(v, bundle))
    for bundle in bundles:
        used = {i for m in bundle for i in m.all_ids()}
        left = [c for c in w.hand if c not in used]
        table = [*w.table, *bundle]
        follow: list[tuple[MeldCards | LayOff, ...]] = [
            (LayOff(t, m),) for t, m in layoff_candidates(v, left, table, seat, must=card)[:1]
        ]
        follow.extend((MeldCards(m),) for m, _ in meld_candidates(v, left, must=card, limit=1)[:1])
        if not follow:
            chain = layoff_chain(v, left, table, seat, card)
            if chain:
                follow.append(tuple(LayOff(t, m) for t, m in chain))
        out.extend((bundle, plays) for plays in follow[:1])
        if len(out) >= limit:
            break
    return out


def black_heart_moves(w: Work, candidates: list[TableMeld] | None = None, limit: int = 8) -> list[Move]:
    """Plays that empty the hand at once, which need no opening (Black Heart §6.6: "her entire
    hand" by melds and lay-offs alone): up to three disjoint new melds (from `candidates`,
    default the hand's) and then lay-offs of the last few cards (with escorts, onto the table or
    the new melds); at most `limit` of them; none in other variants."""
    v, seat, hand = w.variant, w.turn, w.hand
    if v.black_heart_bonus_per_player <= 0 or v.go_out_by_discard_only:
        return []
    if candidates is None:
        candidates = [m for m, _ in meld_candidates(v, hand)]
    # at most three melds and `_BLACK_HEART_LAYOFFS` lay-offs empty the hand: a search that cannot
    # get there with its largest melds stops (a long hand, after taking a long discard row, has
    # thousands of meld triples)
    biggest = max((len(m.all_ids()) for m in candidates), default=0)
    moves: list[Move] = []

    def finish(melds: list[TableMeld], left: frozenset[int]) -> None:
        if not left:
            plays: list[MeldCards | LayOff] = [MeldCards(m) for m in melds]
        elif len(left) <= _BLACK_HEART_LAYOFFS:
            chain = _lay_off_all(v, sorted(left), (*w.table, *melds), seat)
            if chain is None:
                return
            plays = [*(MeldCards(m) for m in melds), *(LayOff(t, m) for t, m in chain)]
        else:
            return
        moves.append(plays[0] if len(plays) == 1 else Opening(tuple(plays)))

    def extend(start: int, melds: list[TableMeld], left: frozenset[int]) -> None:
        if len(moves) >= limit or len(left) - (3 - len(melds)) * biggest > _BLACK_HEART_LAYOFFS:
            return
        finish(melds, left)
        if len(melds) == 3:
            return
        # a candidate may come again (two copies of each of its cards): each takes copies of its own
        for k in range(start, len(candidates)):
            meld = copies_from(candidates[k], left, v)
            if meld is not None and len(moves) < limit:
                extend(k, [*melds, meld], left - frozenset(meld.all_ids()))

    extend(0, [], frozenset(hand))
    return moves


_BLACK_HEART_LAYOFFS = 3  # hand cards a Black Heart search lays off after its melds


def _lay_off_all(
    v: Variant, cards: list[int], table: tuple[TableMeld, ...], seat: int, budget: int = 24
) -> list[tuple[int, TableMeld]] | None:
    """Single lay-offs, one after another, that put every one of `cards` on the table (a card
    with its escort), or None; a depth-first search over at most `budget` positions."""
    left = [budget]

    def search(rest: list[int], melds: tuple[TableMeld, ...]) -> list[tuple[int, TableMeld]] | None:
        if not rest:
            return []
        if left[0] <= 0:
            return None
        left[0] -= 1
        for t, new in layoff_candidates(v, rest, melds, seat):
            added = set(new.all_ids()) - set(melds[t].all_ids())
            found = search([c for c in rest if c not in added], (*melds[:t], new, *melds[t + 1 :]))
            if found is not None:
                return [(t, new), *found]
        return None

    return search(cards, table)


def placements(w: Work, card: int, limit: int = 2) -> list[Placement]:
    """A few ways to put hand card `card` on the table this turn (lay-off, meld or opening)."""
    v, seat = w.variant, w.turn
    out: list[Placement] = []
    if plays_freely(w):
        out.extend(LayOff(t, m) for t, m in layoff_candidates(v, w.hand, w.table, seat, must=card)[:limit])
        out.extend(MeldCards(m) for m, _ in meld_candidates(v, w.hand, must=card, limit=limit)[:limit])
        return out
    req = requirement(v, w.scores[seat])
    assert req is not None  # plays_freely covers a seat without an opening requirement
    for move in opening_moves(v, req, w.hand, card)[:limit]:
        assert isinstance(move, MeldCards | Opening)
        out.append(move)
    for bundle, plays in open_then_place(w, req, card, limit=limit - len(out)):
        out.append(Opening((*(MeldCards(m) for m in bundle), *plays)))
    return out


def diamond_swap_options(w: Work, committed: tuple[int, ...]) -> list[tuple[int, int, int, int | None, bool]]:
    """Diamond swaps open to the player: (meld, diamond, replacement, new escort, diamond was an
    escort); one replacement per card kind, plus the committed copy."""
    v = w.variant
    hand = w.hand
    rule = v.escorts
    hearts = (
        [] if rule is None else [c for c in hand if v.deck[c] in rule.escorts and not v.is_wild(v.deck[c])]
    )  # a diamond escort is replaced by a natural heart (§6.5)
    out: list[tuple[int, int, int, int | None, bool]] = []
    for t, meld in enumerate(w.table):
        info = analyze(v, meld)
        if info.kind == "royale":
            continue
        escorts = meld.escorts or (None,) * len(meld.ids)
        spots = [(d, k, False) for k, d in enumerate(meld.ids)] + [
            (e, k, True) for k, e in enumerate(escorts) if e is not None
        ]
        for d, k, as_escort in spots:
            if not v.is_wild(v.deck[d]):
                continue
            seen: set[int] = set()
            for card in hand:
                kind = v.deck[card]
                if kind in seen and card not in committed:
                    continue
                if as_escort:
                    fits = card in hearts
                elif info.kind == "run":
                    fits = kind == info.meant(k)
                else:
                    fits = rank_of(kind) == info.rank
                if not fits:
                    continue
                seen.add(kind)
                choices: list[int | None] = [None]
                if not as_escort and rule is not None and kind in rule.needs_escort and escorts[k] is None:
                    choices = list(_new_escorts(w, card, committed))
                for new_escort in choices:
                    try:  # e.g. J♦ as itself takes no escort, so it cannot replace a wild J♠ that has one
                        analyze(v, swapped(meld, k, card, new_escort, as_escort, v))
                    except Illegal:
                        continue
                    out.append((t, d, card, new_escort, as_escort))
    return out


def _new_escorts(w: Work, card: int, committed: tuple[int, ...]) -> list[int]:
    """Hand cards that may escort `card` brought in by a diamond swap (§6.2, §6.5): one natural
    heart (a committed one first), every committed heart, and one of each wild that may stand for
    a heart (J♦, K♦)."""
    v = w.variant
    rule = v.escorts
    if rule is None:
        return []
    naturals = [c for c in w.hand if c != card and v.deck[c] in rule.escorts and not v.is_wild(v.deck[c])]
    naturals.sort(key=lambda c: c not in committed)
    out = naturals[:1] + [c for c in naturals[1:] if c in committed]
    kinds: set[int] = set()
    for c in w.hand:
        kind = v.deck[c]
        if c == card or kind in kinds or not v.is_wild(kind):
            continue
        if v.wild_map[kind].stands_for & rule.escorts:
            kinds.add(kind)
            out.append(c)
    return out


def after_swap(w: Work, option: tuple[int, int, int, int | None, bool]) -> Work:
    """A copy of the work with a diamond swap made (not validated), for placement search."""
    t, d, card, new_escort, as_escort = option
    copy = Work.__new__(Work)
    copy.__dict__.update(w.__dict__)
    copy.hands = [list(h) for h in w.hands]
    copy.table = list(w.table)
    copy.hand.remove(card)
    if new_escort is not None:
        copy.hand.remove(new_escort)
    copy.hand.append(d)
    meld = w.table[t]
    k = meld.ids.index(d) if not as_escort else (meld.escorts or ()).index(d)
    copy.table[t] = swapped(meld, k, card, new_escort, as_escort, w.variant)
    return copy


def swapped(
    meld: TableMeld, k: int, card: int, new_escort: int | None, as_escort: bool, v: Variant
) -> TableMeld:
    """Table meld with slot k's diamond (core card or escort) replaced by `card` (unchecked)."""
    escorts = meld.escorts or (None,) * len(meld.ids)
    if as_escort:
        return replace(meld, escorts=put(escorts, k, card))
    escort = escorts[k] if escorts[k] is not None else new_escort
    meaning = swap_meaning(v, v.deck[card], escort)
    return replace(
        meld,
        ids=put(meld.ids, k, card),
        meanings=put(meld.meanings, k, meaning),
        escorts=put(escorts, k, escort),
    )


def swap_meaning(v: Variant, kind: int, escort: int | None) -> Meaning | None:
    """Meaning of a diamond put in by a swap (§6.5): a natural has none; an escorted slot keeps its
    escort, so a diamond there plays as a wild black court card of the group's rank (Q♦ for a K♦
    that stood for an escorted queen), resolved by the meld analysis; otherwise it plays as itself."""
    if not v.is_wild(kind):
        return None
    return None if escort is not None else Meaning(rank_of(kind), suit_of(kind))
