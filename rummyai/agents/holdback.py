"""Hold-back agent: the strategy tips of the Tile Rummy rules, on top of the greedy solver play.

* hold back the fourth card (switch `hold_fourth`): when the play leaves a meld of four or more
  cards with a hand card at one end, keep that card back (up to `hold` cards a turn; the meld
  stays valid and the card still fits it), so that a later turn can lay it off instead of drawing;
* keep a joker (switch `keep_joker`, apart from the first, so that the two tips can be tested
  alone and together): play without the hand's jokers whenever some play without them exists;
* safety: play everything (plain greedy) when an opponent holds at most `danger` cards, when
  the full play would go out, and after `hold_turns` of the agent's own turns in the round.

Every modified play is checked with the engine's rules; if holding back would make it illegal
(an opening below its minimum, say), the agent plays the full greedy move.
"""

from __future__ import annotations

from dataclasses import replace

from rummyai.agents.base import View
from rummyai.agents.greedy import GreedyAgent
from rummyai.agents.solver_play import SeatPosition, best_legal_play, legal_play
from rummyai.engine.moves import Play
from rummyai.engine.state import TableMeld
from rummyai.errors import RummyError


class HoldbackAgent(GreedyAgent):
    """Greedy, but holds back a hand card ending a meld of four or more (new or grown) and keeps
    jokers while it is safe."""

    def __init__(
        self,
        hold_fourth: bool = True,
        keep_joker: bool = True,
        danger: int = 4,
        hold_turns: int = 1000,
        hold: int = 1,
        objective: str = "cards",
        work_limit: float = 5.0,
        seed: int = 0,
    ) -> None:
        super().__init__(objective, work_limit, seed)
        if min(danger, hold_turns, hold) < 0:
            raise RummyError(
                f"danger, hold_turns and hold must be at least 0, got {danger}, {hold_turns}, {hold}"
            )
        self.name = "holdback"
        self.hold_fourth = hold_fourth
        self.keep_joker = keep_joker
        self.danger = danger
        self.hold_turns = hold_turns
        self.hold = hold
        self.held = 0

    def adjust(self, view: View, position: SeatPosition, full: Play) -> Play:
        """The greedy play `full` with the hold-back rules applied while it is safe."""
        if not self.safe_to_hold(view, position, full):
            return full
        play = full
        if self.keep_joker:
            play = self.without_jokers(position) or play
        if self.hold_fourth:
            play = self.hold_back_fourth(position, play) or play
        if play is not full:
            self.held += 1
        return play

    def safe_to_hold(self, view: View, position: SeatPosition, full: Play) -> bool:
        """Holding back is safe early in the round, with no opponent close to going out and no out now."""
        seat = position.seat
        sizes = list(view["hand_sizes"])
        own_turns = int(view.get("turn_count", 0)) // max(1, len(sizes))
        if own_turns >= self.hold_turns:
            return False
        if any(size <= self.danger for s, size in enumerate(sizes) if s != seat):
            return False
        table_ids = {i for m in full.table for i in m.ids}
        return not set(position.hand) <= table_ids

    def without_jokers(self, position: SeatPosition) -> Play | None:
        """The best play keeping every joker in hand, if one exists."""
        deck = position.variant.deck
        jokers = [i for i in position.hand if position.variant.always_wild(deck[i])]
        if not jokers:
            return None
        rest = replace(position, hand=tuple(i for i in position.hand if i not in jokers))
        play, _ = best_legal_play(rest, self.objective, self.work_limit)
        # judged again from the full hand (the same play; it must not depend on the kept jokers)
        return None if play is None else legal_play(position, play.table)

    def hold_back_fourth(self, position: SeatPosition, play: Play) -> Play | None:
        """`play` with up to `hold` hand cards kept back from the ends of melds of 4+ cards.

        Each held card leaves a valid meld of 3+ behind that it still fits, so it can be laid off on
        a later turn instead of drawing. Low-value cards are held first (less to lose if an
        opponent goes out); at least one hand card is always still played.
        """
        hand = set(position.hand)
        deck = position.variant.deck
        values = position.variant.hand_values
        table = list(play.table)
        played = sum(1 for m in table for i in m.ids if i in hand)
        held = 0
        while held < self.hold and played > 1:
            options = []
            for index, meld in enumerate(table):
                if len(meld.ids) < 4:
                    continue
                for end in (len(meld.ids) - 1, 0):
                    card = meld.ids[end]
                    if card in hand and not position.variant.is_wild(deck[card]):
                        options.append((values[deck[card]], index, end))
            for _, index, end in sorted(options):
                meld = table[index]
                keep = [k for k in range(len(meld.ids)) if k != end]
                trial = list(table)
                trial[index] = TableMeld(
                    tuple(meld.ids[k] for k in keep), tuple(meld.meanings[k] for k in keep)
                )
                if legal_play(position, trial) is not None:
                    table = trial
                    held += 1
                    played -= 1
                    break
            else:
                break
        return legal_play(position, table) if held else None
