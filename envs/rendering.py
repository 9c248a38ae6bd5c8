"""Rendering a match as one seat sees it: text (``ansi``) or an RGB image drawn with matplotlib (Agg)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from rummyai.cards import JOKER, card_str, sort_key
from rummyai.engine.state import GameState, TableMeld

_SUIT_COLOURS = ("#1f1f1f", "#c0392b", "#d68910", "#1f5fbf")  # S H D C
_JOKER_COLOUR = "#7d3c98"


def _meld_text(state: GameState, meld: TableMeld) -> str:
    deck = state.variant.deck
    parts = []
    for slot in meld.slots(deck):
        parts.append(str(slot))
    return " ".join(parts)


def _hand_text(state: GameState, seat: int) -> str:
    deck = state.variant.deck
    return " ".join(card_str(k) for k in sorted((deck[i] for i in state.round.hands[seat]), key=sort_key))


def render_text(state: GameState, seat: int, candidates: list[str] | None = None) -> str:
    """A few lines of text: scores, public counts, the table, the discard pile and `seat`'s hand."""
    round_ = state.round
    deck = state.variant.deck
    lines = [
        f"{state.variant.name} | round {state.round_index + 1} | turn {round_.turn_count} | "
        f"seat {seat} to see, seat {state.to_act} to act" + (" | match over" if state.match_over else ""),
        "scores: " + "  ".join(f"seat {s}: {v}" for s, v in enumerate(state.scores)),
        "hands:  "
        + "  ".join(
            f"seat {s}: {len(h)}{'' if not round_.opened or round_.opened[s] else ' (not opened)'}"
            for s, h in enumerate(round_.hands)
        ),
        f"stock: {len(round_.stock)}",
    ]
    if round_.discard or state.variant.discard_mode != "none":
        lines.append("discard: " + (" ".join(card_str(deck[i]) for i in round_.discard) or "-"))
    lines.append("table:" + ("" if round_.table else " -"))
    lines.extend(f"  {_meld_text(state, meld)}" for meld in round_.table)
    lines.append(f"hand (seat {seat}): {_hand_text(state, seat)}")
    if candidates:
        lines.append("candidates: " + ", ".join(f"{i}:{c}" for i, c in enumerate(candidates)))
    return "\n".join(lines) + "\n"


def _colour(kind: int) -> str:
    return _JOKER_COLOUR if kind == JOKER else _SUIT_COLOURS[kind // 13]


def render_rgb(state: GameState, seat: int) -> npt.NDArray[np.uint8]:
    """An RGB image (height, width, 3) of the table, discard pile and `seat`'s hand."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    deck = state.variant.deck
    round_ = state.round
    rows: list[tuple[str, list[tuple[str, str]]]] = []
    for meld in round_.table:
        rows.append(("", [(str(slot), _colour(slot.card)) for slot in meld.slots(deck)]))
    if round_.discard:
        rows.append(("discard", [(card_str(deck[i]), _colour(deck[i])) for i in round_.discard[-20:]]))
    hand = sorted((deck[i] for i in round_.hands[seat]), key=sort_key)
    rows.append(("hand", [(card_str(k), _colour(k)) for k in hand]))
    fig = Figure(figsize=(8, 5), dpi=80)  # fixed 640x400 frames, so videos can be recorded
    canvas = FigureCanvasAgg(fig)
    ax: Any = fig.add_axes((0, 0, 1, 1))
    ax.set_axis_off()
    ax.set_xlim(0, 30)
    ax.set_ylim(0, max(len(rows), 12) + 2)
    size = 8 if len(rows) <= 16 else 6
    fig.patch.set_facecolor("#e8f0e8")
    title = (
        f"{state.variant.name}  round {state.round_index + 1}  turn {round_.turn_count}  "
        f"scores {list(state.scores)}  stock {len(round_.stock)}  "
        f"hands {[len(h) for h in round_.hands]}"
    )
    ax.text(0.3, max(len(rows), 12) + 1.2, title, fontsize=9, va="center")
    for r, (label, cards) in enumerate(rows):
        y = max(len(rows), 12) - r
        ax.text(0.3, y, label, fontsize=size, va="center", style="italic")
        x = 2.6
        for text, colour in cards:
            ax.text(
                x,
                y,
                text,
                fontsize=size,
                va="center",
                color=colour,
                family="monospace",
                weight="bold",
                bbox={"boxstyle": "round,pad=0.2", "fc": "#fffdf5", "ec": "#9a9a9a", "lw": 0.6},
            )
            x += 0.45 * len(text) + 0.5
    canvas.draw()
    image = np.asarray(canvas.buffer_rgba())[:, :, :3]
    return np.ascontiguousarray(image, dtype=np.uint8)
