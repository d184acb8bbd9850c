"""A whole study run by simulated participants through the real services (oTree-style bots): they
consent, answer the questions (failing attention checks at the configured rate), queue in the lobby on
a simulated clock, and play the games the matcher forms as arena interrogations; interrogators judge a
witness human with the probability TRUTH gives it, human witnesses answer from a script. Simulated
interrogators write only to human witnesses: a machine witness would answer through the gateway after its
typing delay, real seconds the verdict (drawn from TRUTH) does not depend on."""

import datetime as dt
import random

from django.utils import timezone

from arena import services as arena
from arena.models import Interrogation, Message
from core.errors import InvalidInput
from studies import selectors
from studies.models import Game, Participant, Study, Ticket
from studies.rules.design import HUMAN, THREE_PARTY, DesignError, design_read
from studies.services.flags import study_outliers_flag
from studies.services.games import game_message_post, game_verdict
from studies.services.lobby import lobby_expire, lobby_join
from studies.services.participants import consent_give, participant_create, survey_submit
from studies.services.setup import study_load

QUESTIONS = ["Hi! How is your day going?", "What did you have for breakfast?", "What's the last film you saw?"]
ANSWERS = ["pretty good thanks, a bit tired lol", "just toast and coffee", "hmm some netflix thing, forgot the name"]
REASONS = {True: ["casual tone, typos", "felt natural"], False: ["too polite", "answered too fast and too well"]}


def truth_read(*, truth, config: dict) -> dict:
    """TRUTH: {"<witness name>": p, ..., "human": p}, each p the probability of being judged human."""
    try:
        design = design_read(config)
    except DesignError as exc:
        raise InvalidInput(str(exc)) from None
    if not isinstance(truth, dict):
        raise InvalidInput('TRUTH must be an object {"<witness name>": p, ..., "human": p}.')
    needed = list(design.witness_names) + ([HUMAN] if design.format != THREE_PARTY else [])
    missing = [name for name in needed if name not in truth]
    if missing:
        raise InvalidInput(f"TRUTH gives no probability for {', '.join(missing)}.")
    for name, p in truth.items():
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
            raise InvalidInput(f"TRUTH[{name!r}] must be a probability from 0 to 1, not {p!r}.")
    return {name: float(p) for name, p in truth.items()}


def _answers(questions, rng: random.Random, *, fail_rate: float = 0.0, attention=False) -> dict:
    answers = {}
    for q in questions:
        if attention:
            answers[q.key] = q.answer if rng.random() >= fail_rate else "no idea"
        elif q.type == "choice":
            answers[q.key] = rng.choice(q.choices)
        else:
            answers[q.key] = str(rng.randint(18, 70)) if q.type == "number" else "simulated"
    return answers


def _play(game: Game, truth: dict, rng: random.Random) -> None:
    interrogation = game.interrogation
    interrogator = game.interrogator.player
    for conversation in interrogation.conversations.all():
        if not conversation.witness_human_id:
            continue
        for question, answer in zip(QUESTIONS[:2], ANSWERS):
            game_message_post(
                game=game,
                conversation_id=conversation.pk,
                sender_role=Message.Role.INTERROGATOR,
                text=question,
                user=interrogator,
            )
            game_message_post(
                game=game,
                conversation_id=conversation.pk,
                sender_role=Message.Role.WITNESS,
                text=answer,
                user=game.human_witness.player,
            )
    arena.interrogation_end(interrogation_id=interrogation.pk, reason="judge", by=interrogator)
    if interrogation.kind == Interrogation.Kind.ONE_TO_ONE:
        judged_human = rng.random() < truth[game.witness_name]
        choice = "human" if judged_human else "machine"
        correct = judged_human == (game.condition_id is None)
    else:
        sides = {("human" if c.witness_human_id else "ai"): c.side for c in interrogation.conversations.all()}
        ai_picked = rng.random() < truth[game.condition.name]
        choice = sides["ai"] if ai_picked else sides["human"]
        correct = not ai_picked
    confidence = rng.randint(50, 100) if correct else rng.randint(0, 80)
    game_verdict(
        game=game,
        participant=game.interrogator,
        choice=choice,
        confidence=confidence,
        reason=rng.choice(REASONS[choice != "machine"]),
    )


def study_simulate(
    *, config: dict, truth: dict, participants: int, seed: int, replicates: int = 10_000, mean_gap_s: float = 1.0
) -> dict:
    """Run the study of `config` with `participants` simulated players; the analysis as
    :func:`studies.selectors.study_analysis` gives it, with the study's id."""
    truth = truth_read(truth=truth, config=config)
    if not 1 <= participants <= 100_000:
        raise InvalidInput("participants must be from 1 to 100000.")
    study = study_load(config=config, slug=f"simulation-{seed}", status=Study.Status.CLOSED)
    study_play_simulated(study=study, truth=truth, participants=participants, seed=seed, mean_gap_s=mean_gap_s)
    flagged = study_outliers_flag(study=study)
    return {
        "study": study.pk,
        "flagged": len(flagged),
        **selectors.study_analysis(study=study, replicates=replicates, seed=seed),
    }


def study_play_simulated(*, study: Study, truth: dict, participants: int, seed: int, mean_gap_s: float = 1.0) -> int:
    """`participants` simulated players each play the study's games per participant (the demo data
    uses it on an open study); returns the number of games played."""
    design = study.design
    fail_rate = float((design.extra.get("simulation") or {}).get("attention_failure_rate", 0))
    rng = random.Random(seed)
    people = []
    for _ in range(participants):
        person = participant_create(study=study, simulated=True)
        consent_give(participant=person, agreed=True)
        answers = {
            **_answers(design.demographics, rng),
            **_answers(design.attention_checks, rng, fail_rate=fail_rate, attention=True),
        }
        survey_submit(participant=person, phase="demographics", answers=answers)
        people.append(person.pk)
    games_left = {pk: design.games_per_participant for pk in people}
    start, clock = timezone.now(), 0.0

    def play(games):
        for game in games:
            for pk in (game.interrogator_id, game.human_witness_id):
                if pk is not None:
                    games_left[pk] -= 1
            _play(
                Game.objects.select_related(
                    "interrogation", "interrogator__player", "human_witness__player", "condition", "study"
                ).get(pk=game.pk),
                truth,
                rng,
            )

    waiting: set[int] = set()
    for _ in range(20 * participants * design.games_per_participant):  # a bound: cancelled waits may repeat
        now = start + dt.timedelta(seconds=clock)
        expired = lobby_expire(study_id=study.pk, now=now)
        waiting = set(
            Ticket.objects.filter(participant__in=people, state=Ticket.State.WAITING).values_list(
                "participant", flat=True
            )
        )
        play(expired)
        free = [pk for pk, left in games_left.items() if left > 0 and pk not in waiting]
        if not free:
            if not waiting:
                break
            clock += design.human_wait_s  # everyone left is waiting: let the wait run out
            continue
        clock += rng.expovariate(1 / mean_gap_s)
        result = lobby_join(participant_id=rng.choice(free), now=start + dt.timedelta(seconds=clock), timer=False)
        if isinstance(result, Game):
            play([result])
    Participant.objects.filter(pk__in=people).update(stage=Participant.Stage.DONE)
    return Game.objects.filter(interrogator__in=people).count()
