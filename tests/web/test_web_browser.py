"""The web page in headless Chromium, as a person uses it: a whole (short) game against an agent
with a hint every turn, a move laid down by hand, Explain, and a replay stepped through."""

from __future__ import annotations

import time
from typing import Any

from selenium.common.exceptions import JavascriptException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select, WebDriverWait

WAIT = 60


def _wait(driver: WebDriver, condition: Any) -> Any:
    """Wait for `condition`; a script error (the page's own script not yet run) counts as not yet."""
    return WebDriverWait(driver, WAIT, ignored_exceptions=(JavascriptException,)).until(
        lambda d: condition(d)
    )


def _deal(
    driver: WebDriver,
    url: str,
    seed: int,
    turns: int | None = None,
    variant: str = "rummikub",
    options: str = "",
) -> None:
    driver.get(f"{url}/?step_ms=20")
    driver.execute_script("sessionStorage.clear()")  # no game of an earlier test comes back
    driver.get(f"{url}/?step_ms=20")
    _wait(driver, lambda d: len(Select(d.find_element(By.ID, "opponent-1")).options) > 1)
    Select(driver.find_element(By.ID, "variant")).select_by_value(variant)
    Select(driver.find_element(By.ID, "opponent-1")).select_by_value("greedy")
    for field, value in (("seed", seed), ("max-turns", turns), ("options", options or None)):
        box = driver.find_element(By.ID, field)
        box.clear()
        if value is not None:
            box.send_keys(str(value))
    driver.find_element(By.ID, "deal").click()  # the handler marks the deal as under way at once
    _wait(
        driver,
        lambda d: d.execute_script("return !play.dealing && play.game && play.game.seats.length === 2"),
    )


def _tokens(driver: WebDriver, selector: str) -> list[list[str]]:
    melds = driver.find_elements(By.CSS_SELECTOR, selector)
    return [[c.get_attribute("data-token") for c in m.find_elements(By.CLASS_NAME, "card")] for m in melds]


def _shown(driver: WebDriver) -> int:
    """How many game states the page has shown (it shows a new one after every move)."""
    return int(driver.execute_script("return play.shown"))


def test_a_whole_game_with_a_hint_every_turn(browser: WebDriver, web_url: str) -> None:
    driver = browser
    _deal(driver, web_url, seed=5, turns=16)
    played_hints = 0
    for _ in range(40):
        if driver.execute_script("return play.game.match_over"):
            break
        driver.find_element(By.ID, "hint").click()
        _wait(driver, lambda d: d.find_element(By.ID, "hint-panel").get_attribute("data-done") == "true")
        best = driver.execute_script("return play.hint.best")
        steps = driver.find_elements(By.CSS_SELECTOR, "#hint-steps li")
        assert [s.text for s in steps] == [s["text"] for s in best["steps"]]
        assert all(s.get_attribute("class") == "done" for s in steps)
        assert driver.find_element(By.ID, "hint-explanation").text == best["explanation"]
        before = _shown(driver)
        if best["played"]:
            # the animation ends on the hint's new table, which the page then plays
            assert _tokens(driver, "#table .meld") == best["melds"]
            hand = len(driver.execute_script("return play.game.hand"))
            driver.find_element(By.ID, "play-hint").click()
            _wait(
                driver,
                lambda d, n=before: _shown(d) > n,
            )
            assert driver.find_element(By.ID, "error").get_attribute("hidden") is not None
            assert len(driver.execute_script("return play.game.hand")) <= hand - len(best["played"]) + 1
            played_hints += 1
        else:
            assert not driver.find_element(By.ID, "play-hint").is_displayed()
            Select(driver.find_element(By.ID, "legal")).select_by_visible_text("Draw")
            driver.find_element(By.ID, "play-legal").click()
            _wait(
                driver,
                lambda d, n=before: _shown(d) > n,
            )
    status = driver.find_element(By.ID, "status").text
    assert status.startswith("Game over"), status
    assert played_hints >= 1  # seed 5 opens at once with the hint's nine cards
    log = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#log li")]
    assert any(line.startswith("you: Play") for line in log) and any(
        line.startswith("greedy:") for line in log
    )


def test_explain_lists_the_alternatives(browser: WebDriver, web_url: str) -> None:
    driver = browser
    _deal(driver, web_url, seed=5)
    driver.find_element(By.ID, "explain").click()
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#alternatives .alternative"))
    hint = driver.execute_script("return play.hint")
    shown = driver.find_elements(By.CSS_SELECTOR, "#alternatives .alternative")
    assert [a.get_attribute("data-label") for a in shown] == [
        m["label"] for m in [hint["best"], *hint["alternatives"]]
    ]
    assert shown[0].find_element(By.TAG_NAME, "h3").text == "Best: " + hint["best"]["title"]
    if len(shown) > 1:  # showing an alternative animates its own steps
        shown[1].find_element(By.CLASS_NAME, "show-alternative").click()
        _wait(driver, lambda d: d.find_element(By.ID, "hint-panel").get_attribute("data-done") == "true")
        assert _tokens(driver, "#table .meld") == hint["alternatives"][0]["melds"]


def test_a_meld_laid_down_by_hand(browser: WebDriver, web_url: str) -> None:
    driver = browser
    _deal(driver, web_url, seed=3)  # the hand holds QH QD QC: 36 points, an opening
    hand = driver.execute_script("return play.game.hand")
    for token in ("QH", "QD", "QC"):
        cards = driver.find_elements(By.CSS_SELECTOR, "#hand .card")
        next(
            c
            for c in cards
            if c.get_attribute("data-token") == token and "selected" not in c.get_attribute("class")
        ).click()
    driver.find_element(By.ID, "new-meld").click()
    assert _tokens(driver, "#table .meld")[-1] == ["QH", "QD", "QC"]
    before = _shown(driver)
    driver.find_element(By.ID, "end-turn").click()
    _wait(driver, lambda d: _shown(d) > before)
    log = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#log li")]
    assert "you: Play QH QD QC into QH QD QC" in log
    after = driver.execute_script("return play.game.hand")
    assert len(after) == len(hand) - 3
    # a table that breaks the rules is refused with the engine's reason, the game unchanged
    cards = driver.find_elements(By.CSS_SELECTOR, "#hand .card")
    cards[0].click()
    cards = driver.find_elements(By.CSS_SELECTOR, "#hand .card")
    cards[1].click()
    driver.find_element(By.ID, "new-meld").click()
    driver.find_element(By.ID, "end-turn").click()
    error = _wait(driver, lambda d: d.find_element(By.ID, "error").text)
    assert "meld" in error


def test_a_replay_stepped_through_with_hands_shown_and_hidden(browser: WebDriver, web_url: str) -> None:
    driver = browser
    driver.get(f"{web_url}/#replays")
    _wait(driver, lambda d: d.execute_script("return replay.game !== null"))
    frames = driver.execute_script("return replay.game.frames")
    label = driver.find_element(By.ID, "frame-label")
    assert label.text == f"move 0 of {len(frames) - 1}"
    for _ in range(3):
        driver.find_element(By.ID, "next").click()
    assert label.text == f"move 3 of {len(frames) - 1}"
    frame = frames[3]
    assert driver.find_element(By.ID, "replay-move").text.endswith(frame["move"])
    faces = driver.find_elements(By.CSS_SELECTOR, "#replay-hands .card:not(.back)")
    assert [c.get_attribute("data-token") for c in faces] == [c for hand in frame["hands"] for c in hand]
    driver.find_element(By.ID, "show-hands").click()  # hide the hands: backs only
    assert not driver.find_elements(By.CSS_SELECTOR, "#replay-hands .card:not(.back)")
    backs = driver.find_elements(By.CSS_SELECTOR, "#replay-hands .card.back")
    assert len(backs) == sum(len(hand) for hand in frame["hands"])
    driver.find_element(By.ID, "show-hands").click()
    driver.find_element(By.ID, "last").click()
    assert label.text == f"move {len(frames) - 1} of {len(frames) - 1}"
    assert _tokens(driver, "#replay-table .meld") == frames[-1]["table"]


def test_a_draw_and_discard_replay_shows_its_table_and_discard_pile(
    browser: WebDriver, discard_web_url: str
) -> None:
    driver = browser
    driver.get(f"{discard_web_url}/#replays")
    _wait(driver, lambda d: d.execute_script("return replay.game !== null"))
    frames = driver.execute_script("return replay.game.frames")
    k = next(k for k, frame in enumerate(frames) if len(frame["table"]) >= 2)  # melds laid down
    driver.execute_script(f"showFrame({k})")
    frame = frames[k]
    shown = _tokens(driver, "#replay-table .meld")
    assert shown == frame["table"] and all(len(meld) >= 3 for meld in shown)
    top = driver.find_element(By.CSS_SELECTOR, "#replay-discard .card").get_attribute("data-token")
    assert top == frame["discard"][-1]
    assert f"{len(frame['discard'])} cards" in driver.find_element(By.ID, "replay-discard").text
    assert driver.find_element(By.ID, "replay-stock").text == f"stock: {frame['stock_size']} cards"
    driver.find_element(By.ID, "next").click()  # the piles follow the frames
    after = frames[k + 1]
    top = driver.find_element(By.CSS_SELECTOR, "#replay-discard .card").get_attribute("data-token")
    assert top == after["discard"][-1]


def test_a_double_click_plays_one_move(browser: WebDriver, web_url: str) -> None:
    driver = browser
    _deal(driver, web_url, seed=4)
    hand = len(driver.execute_script("return play.game.hand"))
    Select(driver.find_element(By.ID, "legal")).select_by_index(0)  # the draw
    button = driver.find_element(By.ID, "play-legal")
    before = _shown(driver)
    driver.execute_script("arguments[0].click(); arguments[0].click();", button)  # before any answer
    _wait(driver, lambda d: _shown(d) > before)
    time.sleep(1.0)  # time for a second answer, if a second move was sent
    log = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#log li")]
    assert [entry for entry in log if entry.startswith("you:")] == ["you: Draw"]
    assert len(driver.execute_script("return play.game.hand")) == hand + 1


def test_a_saved_game_resumed_while_a_deal_is_under_way_gives_way_to_it(
    browser: WebDriver, web_url: str
) -> None:
    """A page opened on a saved game fetches it back; a deal clicked before that answer comes
    keeps its own game (the resumed one no longer takes its place while the deal is under way)."""
    driver = browser
    _deal(driver, web_url, seed=4)
    saved = driver.execute_script("return play.game.id")
    shown = driver.execute_async_script(
        """const done = arguments[arguments.length - 1];
        play.game = null;
        play.dealing = true;
        sessionStorage.setItem(SAVED_GAME, arguments[0]);
        resume().then(() => done(play.game === null ? null : play.game.id));""",
        saved,
    )
    driver.execute_script("play.dealing = false;")
    assert shown is None


def test_reset_clears_the_refusal_of_a_table(browser: WebDriver, web_url: str) -> None:
    driver = browser
    _deal(driver, web_url, seed=3)
    first = driver.find_elements(By.CSS_SELECTOR, "#hand .card")[0]
    first.click()
    driver.find_element(By.ID, "new-meld").click()  # one card: no meld
    driver.find_element(By.ID, "end-turn").click()
    _wait(driver, lambda d: d.find_element(By.ID, "error").text != "")
    driver.find_element(By.ID, "reset-draft").click()
    assert driver.find_element(By.ID, "error").text == ""


def test_a_refresh_comes_back_to_the_game(browser: WebDriver, web_url: str) -> None:
    driver = browser
    _deal(driver, web_url, seed=4)
    game = driver.execute_script("return play.game.id")
    hand = driver.execute_script("return play.game.hand")
    driver.refresh()
    _wait(driver, lambda d: d.execute_script("return play.game !== null && play.game.id") == game)
    assert driver.execute_script("return play.game.hand") == hand


def test_a_service_that_does_not_answer_is_named(browser: WebDriver, web_url: str) -> None:
    driver = browser
    driver.get(f"{web_url}/")
    _wait(driver, lambda d: d.execute_script("return typeof call === 'function'"))
    message = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "call('GET', 'http://127.0.0.1:9/v1/games/x').then(() => done('answered'), (e) => done(e.message));"
    )
    assert message == "the service did not answer: is rummyai serve still running?"


def test_the_end_of_a_round_is_announced_until_the_next_move(browser: WebDriver, web_url: str) -> None:
    driver = browser
    _deal(driver, web_url, seed=2, turns=3, variant="standard")  # rounds cut after three turns
    notice = driver.find_element(By.ID, "round-over")
    assert not notice.is_displayed()
    for _ in range(60):  # draw, discard, ... until a round has ended
        if driver.execute_script("return play.game.last_round !== null"):
            break
        before = _shown(driver)
        Select(driver.find_element(By.ID, "legal")).select_by_index(0)
        driver.find_element(By.ID, "play-legal").click()
        _wait(driver, lambda d, n=before: _shown(d) > n)
    ended = driver.execute_script("return play.game.last_round")
    assert ended["round"] == 1 and notice.is_displayed()
    assert notice.text == ended["text"] and notice.text.startswith("Round 1 over: the turn limit was reached")
    log = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#log li")]
    assert f"table: {ended['text']}" in log
    driver.execute_script("showGame(play.game)")  # showing the game again keeps the notice
    assert notice.is_displayed()
    if not driver.execute_script("return play.game.match_over"):
        before = _shown(driver)
        Select(driver.find_element(By.ID, "legal")).select_by_index(0)
        driver.find_element(By.ID, "play-legal").click()
        _wait(driver, lambda d, n=before: _shown(d) > n)
        if driver.execute_script("return play.game.last_round.round") == 1:
            assert not notice.is_displayed()  # the person has moved on


def test_back_and_forward_move_between_the_tabs(browser: WebDriver, web_url: str) -> None:
    driver = browser
    driver.get("about:blank")  # Back from the page's first tab would leave for here
    driver.get(f"{web_url}/")
    _wait(driver, lambda d: d.execute_script("return typeof showTab === 'function'"))
    driver.execute_script("window.sameDocument = true")
    driver.find_element(By.ID, "tab-replay").click()
    _wait(driver, lambda d: d.find_element(By.ID, "replay-view").is_displayed())
    driver.back()
    _wait(
        driver,
        lambda d: d.current_url.startswith(web_url) and d.find_element(By.ID, "play-view").is_displayed(),
    )
    assert not driver.find_element(By.ID, "replay-view").is_displayed()
    assert driver.execute_script("return window.sameDocument === true")  # the page was not left
    driver.forward()
    _wait(driver, lambda d: d.find_element(By.ID, "replay-view").is_displayed())


def test_a_narrow_window_shows_a_replay_without_sideways_scrolling(browser: WebDriver, web_url: str) -> None:
    driver = browser
    size = driver.get_window_size()
    driver.set_window_size(360, 800)
    try:
        driver.get(f"{web_url}/#replays")
        _wait(driver, lambda d: d.execute_script("return replay.game !== null"))
        frames = driver.execute_script("return replay.game.frames")
        longest = max(range(len(frames)), key=lambda k: max((len(m) for m in frames[k]["table"]), default=0))
        driver.execute_script(f"showFrame({longest})")
        wide = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert wide[0] <= wide[1], wide
    finally:
        driver.set_window_size(size["width"], size["height"])


def test_the_replays_tab_asks_again_after_a_failed_listing(browser: WebDriver, web_url: str) -> None:
    driver = browser
    driver.get(f"{web_url}/")
    _wait(driver, lambda d: d.execute_script("return typeof showTab === 'function'"))
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/v1/runs"]})  # the listing fails
    try:
        driver.find_element(By.ID, "tab-replay").click()
        _wait(driver, lambda d: "did not answer" in d.find_element(By.ID, "runs-info").text)
    finally:
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    driver.find_element(By.ID, "tab-play").click()
    driver.find_element(By.ID, "tab-replay").click()  # opening the tab again asks again
    _wait(driver, lambda d: d.execute_script("return replay.game !== null"))
    assert "greedy" in driver.find_element(By.ID, "runs-info").text


def test_a_game_is_dealt_with_the_options_typed_in(browser: WebDriver, web_url: str) -> None:
    driver = browser
    _deal(driver, web_url, seed=5, options="official_jokers, rounds=2")
    assert driver.execute_script("return play.game.options") == ["official_jokers", "rounds=2"]
    driver.find_element(By.ID, "hint").click()  # the hint asks under the same rules
    _wait(driver, lambda d: d.find_element(By.ID, "hint-panel").get_attribute("data-done") == "true")
    assert driver.find_element(By.ID, "error").get_attribute("hidden") is not None


def test_a_hint_that_opens_and_takes_its_opening_apart_is_shown_step_by_step(
    browser: WebDriver, web_url: str
) -> None:
    # Rhine, not opened: the kings qualify, then go one to each run; the page lays the opening
    # meld first and moves its cards on from it (`open` steps, docs/hint.md)
    driver = browser
    _deal(driver, web_url, seed=1, variant="rhine")
    table = [["9S", "TS", "JS", "QS"], ["9H", "TH", "JH", "QH"], ["9C", "TC", "JC", "QC"]]
    hand = ["KS", "KH", "KC", "AS"]
    best = driver.execute_async_script(
        """
        const [table, hand, done] = arguments;
        call("POST", "/v1/hint", {variant: "rhine", hand: hand, table: table, opened: false, alternatives: 0})
          .then((answer) => {
            play.game = {...play.game, table: table, hand: hand};
            window.openingSeen = [];
            const seen = new MutationObserver(() => {
              for (const el of document.querySelectorAll("#table .meld")) window.openingSeen.push(el.textContent);
            });
            seen.observe(document.getElementById("table"), {childList: true, subtree: true});
            animate(answer.best);
            done(answer.best);
          });
        """,
        table,
        hand,
    )
    assert best["steps"][0]["action"] == "open"
    _wait(driver, lambda d: d.find_element(By.ID, "hint-panel").get_attribute("data-done") == "true")
    assert _tokens(driver, "#table .meld") == best["melds"]
    assert any("opening meld" in text for text in driver.execute_script("return window.openingSeen"))
