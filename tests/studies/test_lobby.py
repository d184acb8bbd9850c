"""The lobby and games on the database: matching, fallbacks, caps, restart safety, the study's rules."""

import contextlib
import datetime as dt
from collections import Counter

import pytest

from arena.models import Message, Status
from core.errors import Closed, InvalidInput, NotAllowed
from studies import selectors, services
from studies.models import Flag, Game, Participant, Ticket

from .helpers import at, ready, study_make

pytestmark = pytest.mark.django_db


def join(person, seconds=0.0):
    """Joins on the test's own clock: waits end by lobby_expire(now=...), not by a real timer."""
    return services.lobby_join(participant_id=person.pk, now=at(seconds), timer=False)


def settle(study, seconds=10_000.0):
    """Everything due by then: windows closed, games started."""
    return services.lobby_expire(study_id=study.pk, now=at(seconds))


def test_every_game_starts_at_its_drawn_time_whoever_the_witness(db):
    study = study_make(human_witness_share=0.5, games_per_participant=10, min_wait_s=5, human_wait_s=30)
    people = ready(study, 12)
    results = [join(p, i) for i, p in enumerate(people)]
    assert all(isinstance(r, Ticket) for r in results)  # nobody plays at once, human or machine
    settle(study)
    games = Game.objects.filter(study=study)
    assert {g.condition_id is None for g in games} == {True, False}  # both kinds
    for ticket in Ticket.objects.filter(study=study).select_related("game__interrogation"):
        game = ticket.game
        assert ticket.state == Ticket.State.MATCHED and game.interrogation.status == Status.RUNNING
        assert 5 <= ticket.wait_s <= 30
        waited = (ticket.start_at - ticket.created_at).total_seconds()
        if game.human_witness_id:  # a pair starts when the later arrival's drawn wait is over
            later = max(ticket, ticket.partner, key=lambda t: t.number)
            assert ticket.start_at == later.created_at + dt.timedelta(seconds=later.wait_s)
            assert game.interrogation.conversations.get().witness_human == game.human_witness.player
        else:  # an AI game: its own drawn wait, plus for one in two the gap of a recent human pair
            assert waited >= ticket.wait_s - 0.001
        assert game.interrogator_id != game.human_witness_id


def test_two_players_who_press_play_together_meet(db):
    """The demo's design (half the games with a human witness): two players who press Play half a second
    apart are paired, whatever the seed deals next; a lone third gets an AI witness."""
    from studies.demo import CONFIG

    study = study_make(**{k: CONFIG[k] for k in ("human_witness_share", "seed", "human_wait_s", "witnesses")})
    a, b, c = ready(study, 3)
    first, second = join(a, 0), join(b, 0.5)
    assert isinstance(first, Ticket) and isinstance(second, Ticket)
    [game] = settle(study, 100)
    assert {game.interrogator_id, game.human_witness_id} == {a.pk, b.pk} and game.condition is None
    join(c, 200)
    [alone] = settle(study, 300)
    assert alone.interrogator_id == c.pk and alone.condition is not None


def test_joining_again_returns_the_same_ticket_or_game(db):
    study = study_make(human_witness_share=1.0)
    (a,) = ready(study)
    ticket = join(a)
    assert isinstance(ticket, Ticket) and join(a, 1) == ticket  # a second tab takes no second ticket
    (b,) = ready(study)
    assert join(b, 2).partner_id == ticket.pk
    [game] = settle(study, 100)
    assert join(a, 101) == game and join(b, 101) == game


def test_a_restart_of_the_lobby_loses_no_one(db, settings):
    """The lobby lives in the database: a fresh process (nothing in memory, a new channel layer) pairs
    the waiting participant with the next arrival, starts its game on time, and gives a lone player
    their AI witness when their window has closed."""
    from channels.layers import channel_layers

    study = study_make(human_witness_share=1.0, min_wait_s=5, human_wait_s=30)
    a, b, c = ready(study, 3)
    join(a, 0)
    channel_layers.backends.clear()  # "restart": no process state survives
    join(b, 2)
    channel_layers.backends.clear()
    [game] = settle(study, 40)
    assert {game.interrogator_id, game.human_witness_id} == {a.pk, b.pk}
    join(c, 100)
    assert settle(study, 104) == []
    channel_layers.backends.clear()
    [fallback] = settle(study, 200)
    assert fallback.interrogator_id == c.pk and fallback.fallback and fallback.condition is not None
    assert not Ticket.objects.filter(state=Ticket.State.WAITING).exists()


def test_no_fallback_cancels_the_wait(db):
    study = study_make(human_witness_share=1.0, fallback="cancel")
    (a,) = ready(study)
    join(a)
    assert settle(study, 31) == []
    assert Ticket.objects.get(participant=a).state == Ticket.State.CANCELLED


def test_a_partner_who_leaves_is_replaced_by_an_ai_witness_at_the_same_moment(db):
    study = study_make(human_witness_share=1.0)
    a, b = ready(study, 2)
    join(a, 0)
    mine = join(b, 1)
    assert services.lobby_leave(participant_id=a.pk)
    [game] = settle(study)
    assert game.interrogator_id == b.pk and game.fallback and game.human_witness is None
    assert Ticket.objects.get(pk=mine.pk).start_at == mine.start_at


def test_the_same_person_on_two_participants_is_never_their_own_partner(db):
    study = study_make(human_witness_share=1.0)
    a, b = ready(study, 2)
    Participant.objects.filter(pk__in=[a.pk, b.pk]).update(device="same-browser")
    a.refresh_from_db(), b.refresh_from_db()
    assert join(a, 0).partner_id is None and join(b, 1).partner_id is None  # never paired with themself
    settle(study)
    assert not Game.objects.filter(human_witness__isnull=False).exists()


def test_partners_meet_once_unless_the_study_allows_it(db):
    study = study_make(human_witness_share=1.0, games_per_participant=4)
    a, b = ready(study, 2)
    join(a, 0)
    join(b, 1)
    [game] = settle(study, 100)
    from arena import services as arena

    arena.interrogation_end(interrogation_id=game.interrogation_id, reason="judge")
    services.game_verdict(game=game, participant=game.interrogator, choice="human", confidence=80)
    join(a, 200)
    assert join(b, 201).partner_id is None


def _finish(game, choice="machine"):
    from arena import services as arena

    arena.interrogation_end(interrogation_id=game.interrogation_id, reason="judge")
    services.game_verdict(game=game, participant=game.interrogator, choice=choice, confidence=90)


def test_caps_on_games_per_participant_and_per_day(db):
    study = study_make(human_witness_share=0.0, games_per_participant=2, games_per_day=1)
    (a,) = ready(study)
    join(a)
    [game] = settle(study, 100)
    _finish(game)
    with pytest.raises(NotAllowed, match="today"):
        join(a, 101)
    assert Flag.objects.filter(kind=Flag.Kind.DAILY_CAP, participant=a).exists()
    type(study).objects.filter(pk=study.pk).update(games_per_day=10)
    join(a, 102)
    [second] = settle(study, 200)
    _finish(second)
    with pytest.raises(Closed, match="all 2 games"):
        join(a, 203)


@pytest.mark.slow
def test_two_hundred_arrivals_through_the_services_keep_the_share_and_never_self_match(db):
    study = study_make(human_witness_share=0.5, games_per_participant=1000)
    people = ready(study, 40)
    import random

    from arena import services as arena

    rng = random.Random(1)
    clock = 0.0
    for _ in range(200):
        clock += rng.expovariate(1 / 2)
        for game in settle(study, clock):
            arena.interrogation_end(interrogation_id=game.interrogation_id, reason="judge")
        person = rng.choice(people)
        result = join(person, clock)
        if isinstance(result, Game):
            arena.interrogation_end(interrogation_id=result.interrogation_id, reason="judge")
    settle(study, clock + 1000)
    games = list(Game.objects.filter(study=study))
    assert all(g.interrogator_id != g.human_witness_id for g in games)
    human = sum(g.human_witness_id is not None for g in games)
    assert 0.35 < human / len(games) < 0.65
    per_condition = Counter(g.condition_id for g in games if g.condition_id)
    assert max(per_condition.values()) - min(per_condition.values()) <= 6


@pytest.fixture
def running_game(db):
    study = study_make(human_witness_share=1.0, max_message_chars=20)
    a, b = ready(study, 2)
    join(a, 0)
    join(b, 1)
    [game] = settle(study)
    return game


def test_strict_alternation_and_the_length_cap_are_enforced_on_the_server(running_game):
    game = running_game
    conversation = game.interrogation.conversations.get()
    judge, witness = game.interrogator.player, game.human_witness.player

    def post(role, text, user):
        return services.game_message_post(
            game=game, conversation_id=conversation.pk, sender_role=role, text=text, user=user
        )

    with pytest.raises(InvalidInput, match="speaks first"):
        post(Message.Role.WITNESS, "hello?", witness)  # never unprompted
    post(Message.Role.INTERROGATOR, "hi there", judge)
    with pytest.raises(InvalidInput, match="Wait for the witness"):
        post(Message.Role.INTERROGATOR, "hello??", judge)
    with pytest.raises(InvalidInput, match="at most 20"):
        post(Message.Role.WITNESS, "x" * 21, witness)
    post(Message.Role.WITNESS, "hey", witness)
    with pytest.raises(InvalidInput, match="Wait for the interrogator"):
        post(Message.Role.WITNESS, "you there?", witness)
    assert conversation.messages.count() == 2


def test_a_witness_naming_its_vendor_voids_the_game(running_game):
    game = running_game
    conversation = game.interrogation.conversations.get()
    services.game_message_post(
        game=game,
        conversation_id=conversation.pk,
        sender_role="interrogator",
        text="are you a bot?",
        user=game.interrogator.player,
    )
    services.game_message_post(
        game=game,
        conversation_id=conversation.pk,
        sender_role="witness",
        text="I'm ChatGPT lol",
        user=game.human_witness.player,
    )
    from arena import services as arena

    arena.interrogation_end(interrogation_id=game.interrogation_id, reason="judge")
    services.game_verdict(game=game, participant=game.interrogator, choice="machine", confidence=99)
    game.refresh_from_db()
    assert game.voided and "chatgpt" in game.void_reason
    assert Flag.objects.filter(kind=Flag.Kind.IDENTITY_LEAK, game=game).exists()
    assert selectors.study_analysis(study=game.study, replicates=100)["games_judged"] == 0


def test_excluded_participants_play_on_but_are_left_out_of_the_analysis(db):
    study = study_make(human_witness_share=0.0)
    (careless,) = ready(study, attention="red")
    assert careless.exclusions.filter(rule="attention_checks").exists()
    join(careless)
    [game] = settle(study)
    from arena import services as arena

    arena.interrogation_end(interrogation_id=game.interrogation_id, reason="judge")
    services.game_verdict(game=game, participant=careless, choice="machine", confidence=70)
    analysis = selectors.study_analysis(study=study, replicates=100)
    assert analysis["excluded"] == 1 and analysis["games_judged"] == 0
    assert selectors.participant_history(participant=careless)["judged"] == 1


def study_with_a_contrarian(around_verdict=contextlib.nullcontext):
    """6 interrogators judge ELIZA 14 times each: everyone sees through it, except one who always calls it
    human. Returns the study and that contrarian."""
    from arena import services as arena
    from studies.models import Condition

    study = study_make(human_witness_share=0.0, games_per_participant=40)
    people = ready(study, 6)
    eliza = Condition.objects.get(study=study, name="ELIZA")
    contrarian = people[0]
    for person in people:
        for i in range(14):
            game = services.game_create(study=study, interrogator=person, condition=eliza)
            arena.interrogation_end(interrogation_id=game.interrogation_id, reason="judge")
            choice = "human" if person == contrarian else ("machine" if i % 7 else "human")
            with around_verdict():
                services.game_verdict(game=game, participant=person, choice=choice, confidence=90)
    return study, contrarian


@pytest.mark.slow
def test_an_interrogator_who_contradicts_the_consensus_is_flagged(db):
    from studies.services.flags import study_outliers_flag

    study, contrarian = study_with_a_contrarian()
    assert study_outliers_flag(study=study) == [contrarian.pk]
    assert Flag.objects.filter(kind=Flag.Kind.OUTLIER).get().participant == contrarian
    study_outliers_flag(study=study)
    assert Flag.objects.filter(kind=Flag.Kind.OUTLIER).count() == 1  # flagged once


@pytest.mark.slow
def test_verdicts_schedule_the_outlier_test_once_and_the_study_page_writes_nothing(
    db, client, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """The outlier test runs from a task after verdicts (debounced), never while a researcher reads."""
    from django.core.cache import cache

    from studies import tasks
    from tests.conftest import make_user

    cache.clear()
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.STUDIES_FLAG_DELAY_S = 600.0  # one debounce window for all 84 verdicts, however loaded the machine
    queued = []
    monkeypatch.setattr(
        tasks.study_flags_refresh, "apply_async", lambda args, countdown: queued.append((args, countdown))
    )
    study, contrarian = study_with_a_contrarian(lambda: django_capture_on_commit_callbacks(execute=True))
    assert queued == [((study.pk,), 600.0)]  # 84 verdicts, one scheduled run
    client.force_login(make_user("rita", staff=True))
    assert client.get(f"/studies/{study.pk}/").status_code == 200
    assert not Flag.objects.exists()  # reading the page flags nobody
    assert tasks.study_flags_refresh(study.pk) == 1
    assert Flag.objects.get(kind=Flag.Kind.OUTLIER).participant == contrarian


def test_the_lobby_state_tells_nothing_of_the_partner_to_come(db):
    """While they wait, a player whose human partner is found and one whose AI witness is decided read
    the same lobby state: no head count, no longest wait, nothing but their own waiting since."""
    humans, machines = study_make(human_witness_share=1.0), study_make(human_witness_share=0.0)
    a, b = ready(humans, 2)
    (c,) = ready(machines)
    join(a, 0)
    assert join(b, 1).kind == "human"
    assert join(c, 1).kind == "ai"
    states = [selectors.lobby_state(participant=Participant.objects.get(pk=p.pk)) for p in (b, c)]
    for state in states:
        assert state["waiting"] and "in_lobby" not in state and "max_wait_s" not in state
        assert state.pop("waiting_since") == at(1).isoformat()
    assert states[0] == states[1]
