"""`manage.py study simulate`: a whole study through the real services, its CIs covering the truth."""

import json

import pytest
from django.core.management import CommandError, call_command

from studies.models import Game, Participant, Ticket

FAST = {"think_s": 0, "per_char_s": 0, "jitter": 0}
CONFIG = {
    "format": "two-party",
    "minutes": 5,
    "seed": 42,
    "human_witness_share": 0.5,
    "games_per_participant": 4,
    "witnesses": [
        {"name": "GPT-4-PERSONA", "engine": "simple", "settings": FAST, "persona": "PERSONA"},
        {"name": "ELIZA", "engine": "eliza", "settings": FAST},
    ],
    "attention_checks": [{"key": "attn", "label": "Type blue", "answer": "blue"}],
    "simulation": {"attention_failure_rate": 0.1},
}
TRUTH = {"GPT-4-PERSONA": 0.55, "ELIZA": 0.2, "human": 0.7}


def simulate(tmp_path, config, truth, participants, seed=5):
    (tmp_path / "c.json").write_text(json.dumps(config))
    (tmp_path / "t.json").write_text(json.dumps(truth))
    from io import StringIO

    out = StringIO()
    call_command(
        "study",
        "simulate",
        str(tmp_path / "c.json"),
        "--truth",
        str(tmp_path / "t.json"),
        "--participants",
        str(participants),
        "--seed",
        str(seed),
        "--replicates",
        "2000",
        "--json",
        stdout=out,
    )
    return json.loads(out.getvalue())


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_simulated_study_covers_the_true_pass_rates(tmp_path):
    result = simulate(tmp_path, CONFIG, TRUTH, 40)
    by_name = {w["witness"]: w for w in result["witnesses"]}
    assert set(by_name) == {"GPT-4-PERSONA", "ELIZA", "human"}
    for name, p in TRUTH.items():
        w = by_name[name]
        assert w["ci_low"] <= p <= w["ci_high"], (name, w)
        assert 0 <= w["p_value"] <= 1 and w["games"] >= 15
    assert result["excluded"] >= 1  # a tenth fail the attention check: their verdicts are left out
    games = Game.objects.filter(study_id=result["study"])
    assert games.count() >= 70
    # the real services ran: arena interrogations, ended and judged, no one their own witness
    assert all(g.interrogation.status == "ended" and g.interrogation.verdict for g in games)
    assert not games.filter(human_witness__isnull=False, human_witness=models_f("interrogator")).exists()
    assert not Ticket.objects.filter(study_id=result["study"], state="waiting").exists()
    assert 0 < result["interrogator_accuracy"] < 1
    assert Participant.objects.filter(study_id=result["study"]).count() == 40


def models_f(name):
    from django.db.models import F

    return F(name)


@pytest.mark.django_db
def test_a_truth_that_misses_a_witness_is_refused(tmp_path):
    with pytest.raises(CommandError, match="ELIZA"):
        simulate(tmp_path, CONFIG, {"GPT-4-PERSONA": 0.5, "human": 0.6}, 2)
    with pytest.raises(CommandError, match="probability"):
        simulate(tmp_path, CONFIG, {**TRUTH, "ELIZA": 1.5}, 2)
