"""Studies' reads: a participant's state and history, the study's analysis (pass rates with bootstrap
CIs and the exact test against 50 %, interrogator accuracy, confidence, time to decision, reasons; the
statistics are arena.stats), and the rows of its exports."""

from collections import Counter
from statistics import median

from django.db.models import Q

from arena import stats
from arena.models import Interrogation, Status, Verdict
from studies.models import Exclusion, Game, Participant, Study, Ticket
from studies.rules.design import HUMAN

SESSION_KEY = "studies.participants"  # {study id: participant id}: the session is the anonymous player


def session_participant(session, study: Study | None) -> Participant | None:
    """The participant this browser session plays as in `study` (None: not joined)."""
    return None if study is None else session_participant_in(session, study.pk)


def session_participant_in(session, study_id: int) -> Participant | None:
    """As :func:`session_participant`, from the study's id: one query (its study and player loaded)."""
    participant_id = (session.get(SESSION_KEY) or {}).get(str(study_id))
    if not participant_id:
        return None
    return Participant.objects.filter(study_id=study_id, pk=participant_id).select_related("study", "player").first()


def open_study() -> Study | None:
    """The study /play/ serves: the newest open one."""
    return Study.objects.filter(status=Study.Status.OPEN).order_by("-created_at").first()


def _games_of(participant: Participant):
    return Game.objects.filter(Q(interrogator=participant) | Q(human_witness=participant))


def participant_games(*, participant: Participant) -> list[Game]:
    """The participant's games, newest first, with their interrogation, verdict and condition."""
    return list(
        _games_of(participant).select_related("interrogation", "condition", "interrogation__verdict").order_by("-pk")
    )


def participant_history(*, participant: Participant, games: list[Game] | None = None) -> dict:
    """The participant's games (``games``: :func:`participant_games`, when the caller has read them),
    newest first, with what they may now know (the truth of a game they judged, once judged), and their
    accuracy as an interrogator."""
    games = participant_games(participant=participant) if games is None else games
    rows, right, judged = [], 0, 0
    for game in games:
        verdict = getattr(game.interrogation, "verdict", None)
        row = {
            "game": str(game.public_id),
            "role": "interrogator" if game.interrogator_id == participant.pk else "witness",
            "status": game.interrogation.status,
            "at": game.created_at,
        }
        if row["role"] == "interrogator" and verdict is not None:
            judged += 1
            right += verdict.correct
            row.update(correct=verdict.correct, confidence=verdict.confidence, partner=_partner(game))
        elif row["role"] == "witness" and verdict is not None:
            row["judged_human"] = _witness_judged_human(game, verdict)
        rows.append(row)
    return {
        "games": rows,
        "judged": judged,
        "correct": right,
        "accuracy": (right / judged) if judged else None,
        "played": len(rows),
        "left": max(0, participant.study.games_per_participant - len(rows)),
    }


def _partner(game: Game) -> str:
    if game.condition_id is None:
        return "a human"
    if game.human_witness_id:
        return f"a human and {game.condition.public_label}"
    return game.condition.public_label


def _witness_judged_human(game: Game, verdict: Verdict) -> bool:
    if game.interrogation.kind == Interrogation.Kind.ONE_TO_ONE:
        return verdict.choice == "human"
    human_side = (
        game.interrogation.conversations.filter(witness_human__isnull=False).values_list("side", flat=True).first()
    )
    return verdict.choice == human_side


def game_is_current(game: Game, participant: Participant) -> bool:
    """The rule of :func:`studies.services.lobby.game_current` for one of the participant's games already
    read (with its interrogation and verdict): newest first, the first that holds is the current game."""
    status = game.interrogation.status
    if status in (Status.SCHEDULED, Status.RUNNING):
        return True
    return (
        game.interrogator_id == participant.pk
        and status == Status.ENDED
        and getattr(game.interrogation, "verdict", None) is None
    )


def lobby_state(*, participant: Participant) -> dict:
    """Everything the lobby page shows, from the database (the participant's games read once, for both
    the game they are in and their history)."""
    study = participant.study
    games = participant_games(participant=participant)
    history = participant_history(participant=participant, games=games)
    game = next((g for g in games if game_is_current(g, participant)), None)
    ticket = Ticket.objects.filter(participant=participant, state=Ticket.State.WAITING).first()
    return {
        "type": "state",
        "stage": participant.stage,
        "study_open": study.status == Study.Status.OPEN,
        "waiting": ticket is not None,
        "waiting_since": ticket.created_at.isoformat() if ticket else None,
        "game": (
            {
                "url": f"/play/game/{game.public_id}/",
                "role": "interrogator" if game.interrogator_id == participant.pk else "witness",
            }
            if game
            else None
        ),
        "played": history["played"],
        "left": history["left"],
        "accuracy": history["accuracy"],
        "judged": history["judged"],
        "correct": history["correct"],
    }


# --- analysis ------------------------------------------------------------------------------------


def _judged_games(study: Study):
    excluded = Exclusion.objects.filter(participant__study=study).values_list("participant", flat=True)
    return (
        Game.objects.filter(study=study, voided=False, interrogation__verdict__isnull=False)
        .exclude(interrogator__in=excluded)
        .select_related("interrogation__verdict", "condition")
        .prefetch_related("interrogation__conversations")
    )


def _witnesses_judged(game: Game, choice: str) -> list[tuple[str, bool]]:
    """(witness name, judged human) of each witness of a game judged `choice`."""
    if game.interrogation.kind == Interrogation.Kind.ONE_TO_ONE:
        return [(game.witness_name, choice == "human")]
    return [
        (HUMAN if c.witness_human_id else game.condition.name, choice == c.side)
        for c in game.interrogation.conversations.all()
    ]


def observations(*, study: Study) -> list[dict]:
    """One row per witness judged: {"game", "witness", "judged_human", "correct", "confidence", "seconds",
    "reason", "kind"}. A two-party game judges its one witness; a three-party game both (the one picked
    as human passed, the other did not)."""
    rows = []
    for game in _judged_games(study):
        verdict = game.interrogation.verdict
        base = {
            "game": game.pk,
            "correct": verdict.correct,
            "confidence": verdict.confidence,
            "seconds": verdict.time_to_decision_s,
            "reason": verdict.reason,
            "kind": game.interrogation.kind,
        }
        rows += [
            {**base, "witness": name, "judged_human": judged}
            for name, judged in _witnesses_judged(game, verdict.choice)
        ]
    return rows


def _rates(by_witness: dict, order: list, replicates: int, seed) -> list[dict]:
    witnesses = []
    for name in sorted(by_witness, key=lambda n: order.index(n) if n in order else len(order)):
        judged = by_witness[name]
        estimate = stats.proportion_estimate(
            sum(judged), len(judged), method="bootstrap", replicates=replicates, seed=seed
        )
        witnesses.append(
            {
                "witness": name,
                "games": len(judged),
                "pass_rate": estimate.rate,
                "ci_low": estimate.ci_low,
                "ci_high": estimate.ci_high,
                "p_value": estimate.p_value,
            }
        )
    return witnesses


def transcript_judging(*, study: Study, replicates: int = 10_000, seed=None) -> dict:
    """Pass rates and accuracy of the transcript-only verdicts, by kind (displaced, inverted)."""
    from studies.models import TranscriptVerdict

    order = [c.name for c in study.conditions.all()] + [HUMAN]
    verdicts = (
        TranscriptVerdict.objects.filter(game__study=study, game__voided=False)
        .select_related("game__interrogation", "game__condition")
        .prefetch_related("game__interrogation__conversations")
    )
    result = {}
    for kind in TranscriptVerdict.Kind.values:
        chosen = [v for v in verdicts if v.kind == kind]
        by_witness: dict[str, list[bool]] = {}
        for verdict in chosen:
            for name, judged in _witnesses_judged(verdict.game, verdict.choice):
                by_witness.setdefault(name, []).append(judged)
        correct = sum(v.correct for v in chosen)
        result[kind] = {
            "verdicts": len(chosen),
            "witnesses": _rates(by_witness, order, replicates, seed),
            "accuracy": correct / len(chosen) if chosen else None,
        }
    return result


def study_analysis(*, study: Study, replicates: int = 10_000, seed=None) -> dict:
    """Each witness's pass rate (share judged human) with a 95 % percentile-bootstrap CI and the exact
    binomial test against 50 % (as Jones & Bergen report), interrogator accuracy, the confidence
    histogram, time to decision and the reasons given."""
    rows = observations(study=study)
    by_witness: dict[str, list[bool]] = {}
    for row in rows:
        by_witness.setdefault(row["witness"], []).append(row["judged_human"])
    order = [c.name for c in study.conditions.all()] + [HUMAN]
    witnesses = _rates(by_witness, order, replicates, seed)
    games = {row["game"]: row for row in rows}.values()
    correct = sum(row["correct"] for row in games)
    accuracy = stats.proportion_estimate(correct, len(games), method="bootstrap", replicates=replicates, seed=seed)
    confidences = [row["confidence"] for row in games]
    seconds = sorted(row["seconds"] for row in games)
    histogram = Counter(min(c // 10, 9) for c in confidences)
    return {
        "witnesses": witnesses,
        "interrogator_accuracy": accuracy.rate,
        "accuracy_ci_low": accuracy.ci_low,
        "accuracy_ci_high": accuracy.ci_high,
        "excluded": Exclusion.objects.filter(participant__study=study).values("participant").distinct().count(),
        "games_judged": len(games),
        "games_voided": Game.objects.filter(study=study, voided=True).count(),
        "confidence_histogram": [
            {"from": 10 * b, "to": 10 * b + (10 if b < 9 else 11), "games": histogram.get(b, 0)} for b in range(10)
        ],
        "time_to_decision_s": {
            "median": median(seconds) if seconds else None,
            "mean": sum(seconds) / len(seconds) if seconds else None,
        },
        "transcript_judging": transcript_judging(study=study, replicates=replicates, seed=seed),
        "reasons": [
            {"witness": row["witness"], "judged_human": row["judged_human"], "reason": row["reason"]}
            for row in rows
            if row["reason"]
        ][-50:],
    }


def study_live(*, study: Study) -> dict:
    """The researcher's live counts."""
    return {
        "participants": study.participants.count(),
        "waiting": Ticket.objects.filter(study=study, state=Ticket.State.WAITING).count(),
        "running": Game.objects.filter(study=study, interrogation__status=Status.RUNNING).count(),
        "games": Game.objects.filter(study=study).count(),
    }
