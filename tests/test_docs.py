"""The documentation: every rule section the code cites is on a rules page, and pages stay in our tree."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = "\n".join(page.read_text() for page in sorted((ROOT / "docs" / "rules").glob("*.md")))
CODE = [path for folder in ("rummyai", "solvers", "envs") for path in sorted((ROOT / folder).rglob("*.py"))]


def _cited() -> set[str]:
    """Section numbers (``§4.4``, ``§1.8 5``) and rule codes (``"1.5 R5"``, ``"2.6"``) in the code."""
    found: set[str] = set()
    for path in CODE:
        text = path.read_text()
        for number, item in re.findall(r"§\s?(\d+(?:\.\d+)*)(?: (\d+)\b)?", text):
            found.add(f"{number}.{item}" if item and number.count(".") == 1 else number)
        found.update(re.findall(r"\"(\d\.\d+(?: [RT]\d+[a-z]?)?)\"", text))
    return found


CITED = sorted(_cited())


def test_the_code_cites_rule_sections() -> None:
    assert {"1.5 R5", "2.5 T4", "7.1", "8.2", "4.4"} <= set(CITED)


@pytest.mark.parametrize("number", CITED)
def test_every_cited_section_is_on_a_rules_page(number: str) -> None:
    if " " in number:  # a rule code: "1.5 R5" is written so on the page
        assert f"**{number} " in RULES, number
    elif number.count(".") == 2:  # a numbered reading, "1.8.3"
        assert re.search(rf"^{re.escape(number)}$", RULES, flags=re.M), number
    else:  # a section heading, "§1.5" or a whole variant, "§6"
        assert re.search(rf"^#+ §{re.escape(number)}\b", RULES, flags=re.M), number


def test_rhine_no_displacement_and_identical_copies_are_documented() -> None:
    assert "**1.5 R5b No displacement.**" in RULES
    assert "**Identical copies are indistinguishable.**" in RULES


def test_the_docs_name_no_file_outside_the_repository() -> None:
    for page in (ROOT / "docs").rglob("*.md"):
        assert "../shared" not in page.read_text() and "VARIANTS.md" not in page.read_text(), page


def test_every_study_plot_the_results_page_shows_is_copied_into_the_site() -> None:
    import sys

    sys.path.insert(0, str(ROOT))
    from mkdocs.structure.files import Files

    import mkdocs_hooks

    config = {"site_dir": "site", "use_directory_urls": True}
    copied = {f.src_uri for f in mkdocs_hooks.on_files(Files([]), config)}
    shown = re.findall(r"\]\(\.\./(studies/[^)]+)\)", (ROOT / "docs" / "results.md").read_text())
    assert shown and set(shown) <= copied, set(shown) - copied
