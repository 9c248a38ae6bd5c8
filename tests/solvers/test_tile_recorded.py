"""The tile solver path builds the same models and gives the same answers as recorded by
`record_tile_answers.py` (speed work on the model build and the judge changes neither;
seeded games and agents replay the same)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from record_tile_answers import ANSWERS, MODELS, OTHERS, VARIANTS, answer, model_hashes, positions

RECORDED = json.loads((Path(__file__).with_name("tile_answers.json")).read_text())


@pytest.mark.parametrize("name", VARIANTS + OTHERS)
def test_models_unchanged(name: str) -> None:
    cases = positions(name, MODELS, 1000 + (VARIANTS + OTHERS).index(name))
    got = [model_hashes(name, h, t) for h, t in cases]
    assert got == RECORDED[name]["models"]


@pytest.mark.parametrize("name", VARIANTS)
def test_answers_unchanged(name: str) -> None:
    cases = positions(name, ANSWERS, 1000 + VARIANTS.index(name))
    got = [answer(name, h, t, mc) for h, t in cases for mc in (True, False)]
    assert got == RECORDED[name]["answers"]
