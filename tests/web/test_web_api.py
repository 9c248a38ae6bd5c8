"""The web page's JSON routes without a browser: games against agents, bad requests named, and
replays of recorded tournament games that end where the games ended."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from rummyai.arena.play import play_game
from rummyai.arena.runner import run_tournament
from rummyai.cards import parse_cards, parse_meld
from rummyai.engine.state import RoundResult
from rummyai.hint.limits import Limits
from rummyai.hint.service import create_app
from rummyai.melds import analyze_meld
from rummyai.variants import get_variant
from rummyai.web.cards import describe_round


@pytest.fixture(scope="module")
def client(recorded_runs: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Limits(pool="thread", workers=1), runs=recorded_runs)) as http:
        yield http


def test_the_page_and_its_files_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and 'src="/web/app.js"' in page.text
    for asset in ("/web/app.js", "/web/style.css"):
        assert client.get(asset).status_code == 200
    names = {a["name"] for a in client.get("/v1/agents").json()}
    assert names >= {"greedy", "random"} and "policy" not in names  # policy needs a model file


def test_a_game_is_played_to_its_end_through_the_listed_moves(client: TestClient) -> None:
    game = client.post(
        "/v1/games", json={"variant": "standard", "opponents": ["greedy"], "seed": 4, "max_turns": 30}
    )
    assert game.status_code == 200, game.text
    state = game.json()
    for _ in range(1000):  # standard plays rounds until a score limit: about 270 decisions here
        if state["match_over"]:
            break
        assert state["your_turn"] and state["legal"], state
        assert len(state["legal"]) == state["legal_count"]  # every move can be chosen
        state = client.post(f"/v1/games/{state['id']}/choose", json={"index": len(state["legal"]) - 1}).json()
    assert state["match_over"] and state["winners"]
    assert any(entry["who"] == "you" for entry in state["log"])
    assert client.get(f"/v1/games/{state['id']}").json()["match_over"]


def test_a_hint_position_of_a_game_is_a_valid_hint_request(client: TestClient) -> None:
    state = client.post("/v1/games", json={"variant": "rummikub", "opponents": ["greedy"], "seed": 5}).json()
    hint = client.post("/v1/hint", json=state["position"]).json()
    assert hint["best"]["played"]
    after = client.post(f"/v1/games/{state['id']}/table", json={"melds": hint["best"]["melds"]}).json()
    assert after["log"][len(state["log"])]["move"].startswith("Play")
    assert len(after["hand"]) <= len(state["hand"]) - len(hint["best"]["played"]) + 1


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"variant": "nope"}, "unknown variant"),
        ({"opponents": ["nobody"]}, "unknown agent"),
        ({"variant": "standard", "opponents": ["value"]}, "tile-style variants only"),
        ({"variant": "rummy-palace", "opponents": ["learned"]}, "no shipped weights for rummy-palace"),
        ({"opponents": ["greedy"] * 4}, "2 to 4 players"),
        ({"seed": -1}, "seed"),
        ({"colour": 1}, "colour"),
    ],
)
def test_bad_games_are_refused_naming_the_problem(
    client: TestClient, body: dict[str, object], needle: str
) -> None:
    answer = client.post("/v1/games", json=body)
    assert answer.status_code == 422 and needle in answer.json()["error"], answer.text


def test_bad_moves_are_refused_naming_the_problem(client: TestClient) -> None:
    state = client.post("/v1/games", json={"seed": 3}).json()
    game = f"/v1/games/{state['id']}"
    assert "choice must be" in client.post(f"{game}/choose", json={"index": 99}).json()["error"]
    bad = client.post(f"{game}/table", json={"melds": [*state["table"], ["QH", "QD"]]})
    assert bad.status_code == 422 and "meld" in bad.json()["error"]
    stolen = client.post(f"{game}/table", json={"melds": [*state["table"], ["AH", "AH", "AH"]]})
    assert stolen.status_code == 422
    assert client.get("/v1/games/feedbeef").status_code == 404


def test_replays_end_where_the_recorded_games_ended(client: TestClient, recorded_runs: Path) -> None:
    listing = client.get("/v1/runs").json()
    assert listing["variant"] == "rummikub" and len(listing["games"]) == 2
    records = [json.loads(line) for line in (recorded_runs / "games.jsonl").read_text().splitlines()]
    records.sort(key=lambda r: (r["set"], r["seating"]))
    for n, record in enumerate(records):
        replay = client.get(f"/v1/runs/{n}").json()
        frames = replay["frames"]
        assert len(frames) == len(record["moves"]) + 1 == sum(record["decisions"]) + 1
        assert frames[-1]["scores"] == record["scores"]
        assert [len(h) for h in frames[0]["hands"]] == [14, 14]
    missing = client.get("/v1/runs/9")
    assert missing.status_code == 404 and "no game 9" in missing.json()["error"]


def test_games_without_moves_and_services_without_runs_say_so(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    run_tournament(
        "rummikub",
        ["random", "greedy"],
        1,
        2,
        out_dir=plain,
        max_turns=6,
        progress=False,
        report=False,
        game_fn=play_game,
    )
    with TestClient(create_app(Limits(pool="thread", workers=1), runs=plain)) as http:
        assert http.get("/v1/runs").json()["games"][0]["moves"] is None
        assert "without recording its moves" in http.get("/v1/runs/0").json()["error"]
    with TestClient(create_app(Limits(pool="thread", workers=1))) as http:
        answer = http.get("/v1/runs")
        assert answer.status_code == 404 and "--runs" in answer.json()["error"]


def test_draw_and_discard_replays_show_their_melds_as_cards(discard_runs: Path) -> None:
    with TestClient(create_app(Limits(pool="thread", workers=1), runs=discard_runs)) as http:
        frames = http.get("/v1/runs/0").json()["frames"]
    variant = get_variant("standard")
    laid = [frame for frame in frames if frame["table"]]
    assert laid, "no meld was laid down in the recorded game"
    for frame in laid:
        for meld in frame["table"]:  # tokens the page draws, wilds with what they stand for
            analyze_meld(variant, parse_meld(meld))
    assert all(frame["stock_size"] is not None for frame in frames)
    assert all(len(parse_cards(frame["discard"])) == len(frame["discard"]) for frame in frames)


@pytest.mark.parametrize(("variant", "key"), [("black-heart", "score"), ("rummy-palace", "taken")])
def test_a_draw_and_discard_hint_position_is_the_play_after_the_draw(
    client: TestClient, variant: str, key: str
) -> None:
    """No hint before the draw; after taking the top discard the position carries what the
    variant's rules read (Black Heart's cumulative score, Palace's card that may not be discarded)."""
    state = client.post("/v1/games", json={"variant": variant, "opponents": ["greedy"], "seed": 3}).json()
    assert state["phase"] == "draw" and state["position"] is None
    take = next(m for m in state["legal"] if m["label"].startswith("Take"))
    state = client.post(f"/v1/games/{state['id']}/choose", json={"index": take["index"]}).json()
    assert state["phase"] == "play" and key in state["position"]
    if key == "score":
        assert state["position"]["score"] == state["scores"][0]
    assert client.post("/v1/hint", json=state["position"]).status_code == 200


def test_plays_of_the_same_cards_are_told_apart_by_where_they_go(client: TestClient) -> None:
    state = client.post("/v1/games", json={"variant": "rummikub", "opponents": ["greedy"], "seed": 7}).json()
    for step in range(40):
        if state["match_over"]:
            break
        labels = [move["label"] for move in state["legal"]]
        plays = [label for label in labels if label.startswith("Play ")]
        assert all(" into " in label for label in plays)
        assert len(set(plays)) == len(plays), plays
        index = 0 if step % 2 == 0 else len(labels) - 1
        state = client.post(f"/v1/games/{state['id']}/choose", json={"index": index}).json()


def test_every_legal_move_is_listed_even_past_forty(client: TestClient) -> None:
    body = {"variant": "black-heart", "opponents": ["greedy", "random", "random"], "seed": 5}
    state = client.post("/v1/games", json=body).json()
    most = 0
    for step in range(30):
        if state["match_over"]:
            break
        assert len(state["legal"]) == state["legal_count"]
        most = max(most, state["legal_count"])
        index = 0 if step % 2 == 0 else len(state["legal"]) - 1
        state = client.post(f"/v1/games/{state['id']}/choose", json={"index": index}).json()
    assert most > 40


def test_draw_and_discard_melds_are_listed_with_their_wilds_and_escorts(client: TestClient) -> None:
    body = {"variant": "black-heart", "opponents": ["greedy", "random", "random"], "seed": 1}
    state = client.post("/v1/games", json=body).json()
    for step in range(30):
        if state["match_over"]:
            break
        labels = [move["label"] for move in state["legal"]]
        assert len(set(labels)) == len(labels), labels
        index = 0 if step % 2 == 0 else len(labels) - 1
        state = client.post(f"/v1/games/{state['id']}/choose", json={"index": index}).json()


def test_every_finished_round_is_told_in_the_log_with_its_scores(client: TestClient) -> None:
    state = client.post(
        "/v1/games", json={"variant": "standard", "opponents": ["greedy"], "seed": 4, "max_turns": 30}
    ).json()
    assert state["last_round"] is None
    told: list[str] = []
    for _ in range(1000):
        told += [e["move"] for e in state["log"] if e["who"] == "table" and e["move"] not in told]
        if state["match_over"]:
            break
        state = client.post(f"/v1/games/{state['id']}/choose", json={"index": 0}).json()
    ended = state["last_round"]
    assert state["match_over"] and ended["round"] == state["round"]
    assert told[-1] == ended["text"] and len(told) == ended["round"]  # one line per round, in order
    assert [line.split(":")[0] for line in told] == [f"Round {k} over" for k in range(1, ended["round"] + 1)]
    scores = ", ".join(
        f"{name} {score:+d}" for name, score in zip(state["seats"], ended["scores"], strict=True)
    )
    assert ended["text"].endswith(f"Round scores: {scores}.")


@pytest.mark.parametrize(
    ("result", "text"),
    [
        (RoundResult(1, (-12, 0), "out"), "Round 2 over: greedy went out. Round scores: you -12, greedy +0."),
        (
            RoundResult(0, (40, -20), "out", "Going Rummy"),
            "Round 2 over: you went out (Going Rummy). Round scores: you +40, greedy -20.",
        ),
        (
            RoundResult(0, (7, -7), "stock_exhausted"),
            "Round 2 over: the stock ran out; lowest hand: you. Round scores: you +7, greedy -7.",
        ),
    ],
)
def test_a_round_end_in_words(result: RoundResult, text: str) -> None:
    assert describe_round(2, result, ["you", "greedy"]) == text


def test_a_rhine_round_end_gives_penalty_points() -> None:
    line = describe_round(1, RoundResult(None, (15, 40), "stock_exhausted"), ["you", "greedy"], low_wins=True)
    assert (
        line == "Round 1 over: the stock ran out. Round penalty points (lower is better): you 15, greedy 40."
    )


def test_a_game_is_dealt_with_the_variants_options_and_its_hints_ask_with_them(client: TestClient) -> None:
    body = {
        "variant": "rummikub",
        "opponents": ["greedy"],
        "seed": 5,
        "options": ["official_jokers", "rounds=2"],
    }
    state = client.post("/v1/games", json=body).json()
    assert state["options"] == ["official_jokers", "rounds=2"]
    assert state["position"]["options"] == ["official_jokers", "rounds=2"]
    hint = client.post("/v1/hint", json=state["position"])
    assert hint.status_code == 200, hint.text
    plain = client.post("/v1/games", json={**body, "options": None}).json()
    assert plain["options"] == [] and plain["position"]["options"] == []


@pytest.mark.parametrize(
    ("options", "needle"),
    [(["nope"], "unknown option 'nope'"), (["decks=2"], "unknown option 'decks'"), (["rounds=0"], "rounds")],
)
def test_a_game_with_bad_options_is_refused_naming_them(
    client: TestClient, options: list[str], needle: str
) -> None:
    answer = client.post("/v1/games", json={"variant": "rummikub", "options": options})
    assert answer.status_code == 422 and needle in answer.json()["error"], answer.text
