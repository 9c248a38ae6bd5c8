"""Game flow and scoring of the tile-style variants (docs/rules §1, §2, §3, §8 and §0), driven
through the engine's public API from small hand-made positions: the deal of later rounds, turns
on an empty stock, going out after the stock ran out, the stalemate cycle, ties and match ends.
Rules already pinned in test_rules_*.py are not repeated here."""

from __future__ import annotations

from rummyai.engine import Draw, Give, apply, legal_moves, new_match, validate
from rummyai.engine.tile import apply_or_penalize
from rummyai.engine.tile_position import play_from_text, position


def kinds(state, ids) -> list[str]:
    from rummyai.cards import card_str

    return sorted(card_str(state.variant.deck[i]) for i in ids)


# ------------------------------------------------------------------ §1 Rhine
def test_rhine_1_1_next_round_is_a_fresh_deal_left_of_the_new_dealer() -> None:
    # round 1 ends with seat 0 qualified; round 2 deals 10 new cards each, nobody is qualified,
    # the deal passes one seat left and the scores carry over
    state = position("rhine", ["7H 8H 9H KS", "2C 3C", "4D"], "5S 6S 7S", turn=0, stock="", max_turns=50)
    assert state.round.dealer == 2
    state = apply(state, Draw())  # stock empty, no play: the round ends (§1.6)
    assert state.round_index == 1 and state.history[0].reason == "stock_exhausted"
    assert state.scores == (37, 5, 4)
    rs = state.round
    assert rs.dealer == 0 and rs.turn == 1
    assert rs.opened == (False, False, False) and rs.table == ()
    assert [len(h) for h in rs.hands] == [10, 10, 10] and len(rs.stock) == 108 - 30


def test_rhine_1_6_going_out_after_the_stock_ran_out_still_scores_zero() -> None:
    # the empty stock ends the round only for a player who does not PLAY (§1.2, §1.8.11)
    state = position("rhine", ["7H 8H 9H", "2C 3C"], "", opened=True, stock="")
    result = apply(state, play_from_text(state, "7H 8H 9H")).history[0]
    assert result.reason == "out" and result.winner == 0 and result.scores == (0, 5)
    # Down & Out on an empty stock: qualifying and going out in one turn still scores -20
    state = position("rhine", ["7H 8H 9H", "2C 3C"], "", opened=False, stock="")
    result = apply(state, play_from_text(state, "7H 8H 9H")).history[0]
    assert result.scores == (-20, 5) and result.detail == "down and out"


def test_rhine_1_8_11_empty_stock_players_keep_playing_until_one_does_not() -> None:
    state = position("rhine", ["9S 2D", "AC 2C 3C 5H", "KD QD"], "6S 7S 8S", stock="")
    state = apply(state, play_from_text(state, "6S 7S 8S 9S"))  # seat 0 plays: no end
    assert not state.history and state.round.turn == 1
    state = apply(state, play_from_text(state, "6S 7S 8S 9S | AC 2C 3C"))  # seat 1 qualifies
    assert not state.history and state.round.turn == 2
    state = apply(state, Draw())  # seat 2 does not play: the round ends at once
    result = state.history[0]
    # seats 0 and 1 played most of their hands and still score what they hold; nobody scores 0
    assert result.reason == "stock_exhausted" and result.winner is None
    assert result.scores == (2, 5, 13 + 12)


def test_rhine_1_6_cumulative_scores_and_no_winner_before_round_ten() -> None:
    state = new_match("rhine", 3, seed=5, max_turns=1)
    for played in range(1, 10):
        state = apply(state, Draw())
        assert len(state.history) == played and not state.match_over and not state.winners
        assert state.scores == tuple(sum(r.scores[s] for r in state.history) for s in range(3))
    state = apply(state, Draw())
    assert state.match_over and len(state.history) == 10
    assert state.winners == tuple(s for s, v in enumerate(state.scores) if v == min(state.scores))
    assert legal_moves(state) == [] and validate(state, Draw()) is not None


# ------------------------------------------------------------------ §2 Tile Rummy
def test_tiles_2_6_extra_cycle_plays_move_the_cycle_and_scores_follow_the_racks() -> None:
    # seats 0 and 1 pass on the empty pool; the stalemate starts with seat 0, the seat after
    # the last passer; both give a tile, then each takes one mini-pool tile on its extra turn
    state = position("rummy-tiles", ["8S 9H", "KC QD"], "5S 6S 7S", stock="")
    state = apply(apply(state, Draw()), Draw())
    assert state.round.family_data.phase == "give" and state.round.turn == 0
    nine_h = next(i for i in state.round.hands[0] if state.variant.deck[i] == 13 + 8)
    state = apply(state, Give(nine_h))
    queen_d = next(i for i in state.round.hands[1] if state.variant.deck[i] == 26 + 11)
    state = apply(state, Give(queen_d))
    rs = state.round
    assert rs.family_data.phase == "extra" and rs.turn == 0 and len(rs.hands[0]) == 2
    taken = next(i for i in rs.hands[0] if state.variant.deck[i] != 7)
    state = apply(state, play_from_text(state, "5S 6S 7S 8S"))  # plays 8S, keeps the taken tile
    rs = state.round
    assert not state.history and rs.turn == 1 and len(rs.hands[1]) == 2  # seat 1 took the other
    state = apply(state, Draw())  # seat 1 passes: the extra cycle is over
    result = state.history[0]
    assert result.reason == "stalemate"
    # seat 0 holds one of 9H/QD, seat 1 holds KC and the other: seat 0 is lower and wins
    mine = state.variant.hand_value(state.variant.deck[taken])
    theirs = 13 + (9 + 12 - mine)
    assert result.winner == 0 and result.scores == (theirs - mine, mine - theirs)


def test_tiles_0_max_turns_in_the_give_phase_is_scored_without_the_extra_cycle() -> None:
    state = position("rummy-tiles", ["KS QS", "2C 3C", "AD"], "5S 6S 7S", stock="", max_turns=4)
    for _ in range(3):
        state = apply(state, Draw())
    assert state.round.family_data.phase == "give"
    state = apply(state, legal_moves(state)[0])  # the 4th turn: truncation
    result = state.history[0]
    assert result.reason == "max_turns" and result.winner == 2  # AD: 1 point
    assert sum(result.scores) == 0 and result.scores[2] == max(result.scores)


# ------------------------------------------------------------------ §3 Board Rummy
def test_board_3_6_the_last_card_drawn_counts_in_the_drawers_hand() -> None:
    # seat 0 draws the last card (KD, 13): 5 + 13 = 18 against 7; the game ends before seat 1 plays
    state = position("rummy-board", ["5S", "7H"], "", stock="KD")
    result = apply(state, Draw()).history[0]
    assert result.reason == "last_draw" and result.scores == (-18, -7) and result.winner == 1


def test_board_3_6_numeric_score_sums_over_a_multi_round_wrapper() -> None:
    state = new_match("rummy-board", 2, seed=3, options={"rounds": 2}, max_turns=1)
    state = apply(state, Draw())
    assert len(state.history) == 1 and not state.match_over
    state = apply(state, Draw())
    assert state.match_over
    assert state.scores == tuple(sum(r.scores[s] for r in state.history) for s in range(2))
    assert all(score < 0 for score in state.scores)  # -(hand total) each round
    assert state.winners == tuple(s for s, v in enumerate(state.scores) if v == max(state.scores))


# ------------------------------------------------------------------ §8 Rummikub
def test_rummikub_8_3_going_out_on_an_empty_pool_wins_the_sum() -> None:
    state = position("rummikub", ["8S", "2C JK", "KD"], "5S 6S 7S", stock="")
    state = apply(state, Draw())  # a pass on the empty pool
    assert state.round.passes == 1
    state = apply(state, Draw())
    state = apply(state, Draw())  # third pass: a full cycle ends the round
    assert state.history[0].reason == "no_play_cycle"
    state = position("rummikub", ["8S", "2C JK", "KD"], "5S 6S 7S", stock="")
    state = apply(state, play_from_text(state, "5S 6S 7S 8S"))
    result = state.history[0]
    assert result.reason == "out" and result.scores == (32 + 13, -32, -13)


def test_rummikub_8_3_a_play_on_the_empty_pool_restarts_the_cycle() -> None:
    state = position("rummikub", ["8S 2H", "2C 3C", "KD"], "5S 6S 7S", stock="")
    state = apply(state, Draw())  # seat 0 passes
    state = apply(state, Draw())  # seat 1 passes
    state = apply(state, Draw())  # seat 2 passes: 3 passes, the round ends
    assert state.history and state.history[0].reason == "no_play_cycle"
    state = position("rummikub", ["8S 2H", "2C 3C", "KD"], "5S 6S 7S", stock="")
    state = apply(state, Draw())  # seat 0
    state = apply(state, Draw())  # seat 1
    assert state.round.passes == 2
    state = position("rummikub", ["2H", "8S 3C", "KD"], "5S 6S 7S", stock="")
    state = apply(state, Draw())  # seat 0 passes
    state = apply(state, play_from_text(state, "5S 6S 7S 8S"))  # seat 1 plays: count restarts
    assert state.round.passes == 0
    for _ in range(2):
        state = apply(state, Draw())
    assert not state.history  # only two passes since the play
    state = apply(state, Draw())
    assert state.history[0].reason == "no_play_cycle" and state.history[0].winner == 0


def test_rummikub_8_3_invalid_play_penalty_on_an_empty_pool_is_a_pass() -> None:
    state = position(
        "rummikub", ["7H 8H", "2C 3C"], "5S 6S 7S", stock="", options={"invalid_play_penalty": 3}
    )
    state = apply_or_penalize(state, play_from_text(state, "5S 6S 7S 7H 8H"))
    assert state.round.passes == 1 and len(state.round.hands[0]) == 2
    state = apply(state, Draw())
    assert state.history[0].reason == "no_play_cycle"


def test_tiles_0_max_turns_in_the_extra_cycle_breaks_ties_by_the_cycle_order() -> None:
    # seats 0 and 1 pass; the cycle starts at seat 0; seat 1 gives 3C, seat 0 takes it
    state = position("rummy-tiles", ["5S", "4H 4D 3C"], "9C TC JC", stock="", max_turns=4)
    state = apply(apply(state, Draw()), Draw())
    three = next(i for i in state.round.hands[1] if state.variant.deck[i] == 39 + 2)
    state = apply(state, Give(three))
    assert state.round.family_data.order == (0, 1) and len(state.round.hands[0]) == 2
    state = apply(state, Draw())  # seat 0's extra turn, the 4th turn: truncation at seat 1
    result = state.history[0]
    # 5S 3C against 4H 4D: 8 points and two tiles each; seat 0 is earlier in the extra cycle
    assert result.reason == "max_turns" and result.winner == 0 and result.scores == (0, 0)
