"""Screenshots of the web page for docs/web.md: a game with a hint carried out, Explain, replays.

.venv/bin/python tests/web/screenshots.py docs/images
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait
from web_harness import make_driver, missing_browser, record_runs, start_service

from rummyai.hint.limits import Limits


def main(out: Path) -> None:
    why = missing_browser()
    if why is not None:
        sys.exit(why)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        url, stop = start_service(record_runs(Path(tmp) / "greedy-vs-random"))
        driver = make_driver(1280, 900)
        wait = WebDriverWait(driver, 60)
        try:
            driver.get(f"{url}/?step_ms=1000")
            wait.until(lambda d: len(Select(d.find_element(By.ID, "opponent-1")).options) > 1)
            Select(driver.find_element(By.ID, "opponent-1")).select_by_value("greedy")
            Select(driver.find_element(By.ID, "opponent-2")).select_by_value("mcts")
            driver.find_element(By.ID, "seed").clear()
            driver.find_element(By.ID, "seed").send_keys("5")
            driver.find_element(By.ID, "deal").click()
            wait.until(lambda d: d.execute_script("return play.game !== null"))
            driver.save_screenshot(str(out / "web-play.png"))
            driver.find_element(By.ID, "hint").click()
            wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hint-steps li.done"))
            time.sleep(0.3)  # mid-animation: one step done, the next one's cards highlighted
            driver.save_screenshot(str(out / "web-hint-step.png"))
            wait.until(lambda d: d.find_element(By.ID, "hint-panel").get_attribute("data-done") == "true")
            driver.save_screenshot(str(out / "web-hint.png"))
            for _ in range(15):  # play the hints until one offers alternatives, for Explain
                if len(driver.execute_script("return play.hint.alternatives")) >= 2:
                    break
                shown = driver.execute_script("return play.shown")
                if driver.find_element(By.ID, "play-hint").is_displayed():
                    driver.find_element(By.ID, "play-hint").click()
                else:
                    Select(driver.find_element(By.ID, "legal")).select_by_visible_text("Draw")
                    driver.find_element(By.ID, "play-legal").click()
                wait.until(lambda d, n=shown: d.execute_script("return play.shown") > n)
                driver.find_element(By.ID, "hint").click()
                wait.until(lambda d: d.find_element(By.ID, "hint-panel").get_attribute("data-done") == "true")
            driver.find_element(By.ID, "explain").click()
            wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#alternatives .alternative"))
            driver.execute_script("document.getElementById('alternatives').scrollIntoView()")
            driver.save_screenshot(str(out / "web-explain.png"))
            driver.get(f"{url}/#replays")
            wait.until(lambda d: d.execute_script("return replay.game !== null"))
            for _ in range(24):
                driver.find_element(By.ID, "next").click()
            driver.save_screenshot(str(out / "web-replay.png"))
        finally:
            driver.quit()
            stop()
    discard_replay(out)


def discard_replay(out: Path) -> None:
    """A replay of a draw-and-discard game (standard rummy): melds, stock and discard pile."""
    with tempfile.TemporaryDirectory() as tmp:
        runs = record_runs(Path(tmp) / "standard", "standard", max_turns=20)
        url, stop = start_service(runs, Limits(workers=1, pool="thread"))
        driver = make_driver(1280, 900)
        try:
            driver.get(f"{url}/#replays")
            WebDriverWait(driver, 60).until(lambda d: d.execute_script("return replay.game !== null"))
            frames = driver.execute_script("return replay.game.frames")
            k = next((k for k, f in enumerate(frames) if len(f["table"]) >= 3), len(frames) - 1)
            driver.execute_script(f"showFrame({k})")
            driver.save_screenshot(str(out / "web-replay-discard.png"))
        finally:
            driver.quit()
            stop()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images"))
