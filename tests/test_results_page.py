"""The results page quotes the committed study reports: every table row it shows for a study's
cell is a row of that study's `report.md` (which `rummyai study report` writes from the records)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "results.md"


def _studies() -> list[Path]:
    """The study folders the page's sections report on (a heading ending in `studies/<name>/`)."""
    names = re.findall(r"^## .*\(`studies/([a-z0-9-]+)/`\)$", PAGE.read_text(), re.MULTILINE)
    return [ROOT / "studies" / name for name in names]


def test_the_page_names_committed_studies() -> None:
    studies = _studies()
    assert len(studies) >= 3
    for folder in studies:
        assert (folder / "plan.toml").is_file(), folder
        assert (folder / "report.md").is_file(), folder


def test_every_cell_row_on_the_page_is_a_row_of_its_report() -> None:
    page_rows = [line for line in PAGE.read_text().splitlines() if line.startswith("| ")]
    checked = 0
    for folder in _studies():
        cells = {cell["id"] for cell in tomllib.loads((folder / "plan.toml").read_text())["cell"]}
        report_rows = set((folder / "report.md").read_text().splitlines())
        for row in page_rows:
            first = row.split("|")[1].strip()
            if first in cells:
                assert row in report_rows, f"{folder.name}: the page's row is not in report.md:\n{row}"
                checked += 1
    assert checked >= 20
