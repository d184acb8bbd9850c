"""Anti-abuse flags for interrogators whose verdicts are improbable given the consensus (Chatbot Arena's
outlier test, arena.stats.judge_outliers): each judged witness is a battle against a virtual opponent
(two-party: judged human wins) or against the other witness (three-party: the one picked as human
wins), and each interrogator's battles are tested sequentially against the other interrogators' fit."""

import numpy as np

from arena import stats
from studies.models import Flag, Game, Study
from studies.rules.design import HUMAN

VERDICT = "(verdict)"  # the virtual opponent of a two-party game's witness


def study_outliers_flag(*, study: Study, alpha: float = 0.05, min_votes: int = 5) -> list[int]:
    """Flag (once) every interrogator the test rejects; returns their participant ids."""
    from studies.selectors import observations

    rows = observations(study=study)
    interrogators = dict(Game.objects.filter(pk__in={r["game"] for r in rows}).values_list("pk", "interrogator"))
    names, a, b, score, judges = {VERDICT: 0}, [], [], [], []

    def index(name):
        return names.setdefault(name, len(names))

    three_party = {}
    for row in rows:
        if row["kind"] == "one_to_one":
            a.append(index(row["witness"]))
            b.append(index(VERDICT))
            score.append(1.0 if row["judged_human"] else 0.0)
            judges.append(interrogators[row["game"]])
        else:
            three_party.setdefault(row["game"], []).append(row)
    for game, pair in three_party.items():
        ai = next(r for r in pair if r["witness"] != HUMAN)
        a.append(index(ai["witness"]))
        b.append(index(HUMAN))
        score.append(1.0 if ai["judged_human"] else 0.0)
        judges.append(interrogators[game])
    if not a:
        return []
    battles = stats.Battles(names=list(names), a=np.array(a), b=np.array(b), score=np.array(score))
    flagged = []
    for test in stats.judge_outliers(battles, judges, alpha=alpha, min_votes=min_votes):
        if test.flagged:
            flagged.append(test.judge)
            Flag.objects.get_or_create(
                study=study,
                kind=Flag.Kind.OUTLIER,
                participant_id=test.judge,
                defaults={
                    "detail": f"e-value {test.e_value:.1f} after {test.votes} verdicts "
                    f"(agreement {test.agreement if test.agreement is not None else float('nan'):.2f})"
                },
            )
    return flagged
