"""The Tables stub player: scripted answers to a whole Tables prompt, no network."""

import json

import pytest

from bots.base import EngineError
from bots.engines.tables_stub import TablesStubEngine
from bots.registry import get_engine


def test_it_is_registered_and_labelled_as_no_language_model():
    engine = get_engine("tables_stub", {})
    assert isinstance(engine, TablesStubEngine) and "not a language model" in engine.label


def test_a_vote_names_one_offered_candidate_and_the_same_prompt_gives_the_same_vote():
    prompt = [
        {"role": "system", "content": "You are Alpha, one of three agents."},
        {"role": "user", "content": 'Vote. - "voteAgainst": exactly one of "Beta", "Gamma";\n- "reason": why'},
    ]
    engine = TablesStubEngine({})
    first = json.loads(engine.chat(prompt, json_mode=True).text)
    assert first["voteAgainst"] in ("Beta", "Gamma") and first["voteAgainst"] in first["reason"]
    assert json.loads(engine.chat(prompt, json_mode=True).text) == first


def test_an_opening_is_a_machines_claim_and_a_vote_without_candidates_fails():
    engine = TablesStubEngine({})
    assert engine.chat([{"role": "user", "content": "Opening round. You are Beta."}]).text
    with pytest.raises(EngineError):
        engine.chat([{"role": "user", "content": "Vote."}], json_mode=True)
