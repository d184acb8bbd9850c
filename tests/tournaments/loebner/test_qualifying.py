"""Qualifying: every qualified entry is asked the questions through the engine gateway, in one stateful
conversation each, all entries at once; answers scored 0/1/2 or by audience votes; human controls."""

import time

import pytest

from arena.models import EngineCall, Entry
from core.errors import Closed, InvalidInput
from tests.tournaments.loebner.helpers import contest_make, entered, entrant_make
from tests.tournaments.loebner.stub import SlowBot, webhook_settings
from tournaments.loebner import selectors, services
from tournaments.loebner.models import Contest, QualifyingAnswer, QualifyingSubject, Question, QuestionSet


@pytest.fixture
def wide_worker(services_mode, transactional_db, end_stray_sessions):
    """Services mode: a Celery worker that runs 16 tasks at once (threads); embedded: in-process threads."""
    if not services_mode:
        yield None
        return
    import celery.contrib.testing.tasks  # noqa: F401  registers celery.ping for the ping check
    from celery.contrib.testing.worker import start_worker

    from config.celery_app import app

    app.control.purge()
    with start_worker(
        app, pool="threads", concurrency=16, perform_ping_check=True, shutdown_timeout=10, queues=["celery", "bots"]
    ) as worker:
        yield worker


def small_set(*texts):
    question_set = QuestionSet.objects.create(name=f"set {QuestionSet.objects.count()}")
    for i, text in enumerate(texts, 1):
        Question.objects.create(
            question_set=question_set,
            order=i,
            text=text,
            category="time" if "time" in text else "memory",
            expects="about {time}, round {round}" if "time" in text else "",
        )
    return question_set


def wait_done(contest, count, timeout_s=30):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if QualifyingSubject.objects.filter(contest=contest, status="done").count() >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"qualifying not done: {list(QualifyingSubject.objects.values_list('status', flat=True))}")


@pytest.mark.slow
def test_sixteen_entries_are_asked_at_once_in_one_conversation_each(cast, wide_worker, settings):
    """16 entries whose endpoint answers in 0.25 s, 2 questions each: one after another this would take
    8 s; at once it takes about two answers' time."""
    settings.ARENA_OUTBOUND_ALLOW = ["127.0.0.1/32"]
    question_set = small_set("I have a friend named Harry who likes to play tennis.", "What game does Harry play?")
    contest = contest_make(question_set=question_set, qualifying_limit=16)
    ada = entrant_make("ada")
    with SlowBot(delay_s=0.25) as bot:
        items = [entered(contest, ada, f"Hook {i:02d}", minutes=i) for i in range(17)]
        for item in items:
            Entry.objects.filter(pk=item.entry_id).update(engine="webhook", settings=webhook_settings(bot.url))
        services.contest_close(contest_id=contest.pk)
        start = time.perf_counter()
        services.qualifying_start(contest_id=contest.pk)
        wait_done(contest, 16)
        elapsed = time.perf_counter() - start
    assert elapsed < 4, f"qualifying took {elapsed:.2f} s: not concurrent"
    assert QualifyingSubject.objects.filter(contest=contest).count() == 16  # the 17th came too late
    assert len(bot.requests) == 32
    second = [r for r in bot.requests if r["message"].startswith("What game")]
    assert all(
        [t["text"] for t in r["history"]][0].startswith("I have a friend") and len(r["history"]) == 2 for r in second
    )  # one conversation per entry: the memory question sees the assertion
    assert len({r["conversation"] for r in bot.requests}) == 16
    assert EngineCall.objects.filter(subject__startswith=f"loebner contest {contest.pk} qualifying").count() == 32


def test_time_questions_are_scored_against_the_contest_clock(cast, settings):
    import datetime as dt

    from django.utils import timezone

    question_set = small_set("What time is it?")
    day = timezone.now().replace(hour=10, minute=0, second=0, microsecond=0) + dt.timedelta(days=30)
    contest = contest_make(question_set=question_set, contest_day=day, status="open")
    entered(contest, entrant_make("ada"), "Clockwork")
    entered(contest, entrant_make("bob"), "Other")
    services.contest_close(contest_id=contest.pk)
    subject = QualifyingSubject.objects.create(contest=contest, contest_entry=contest.entries.first())
    services.qualifying_ask(subject_id=subject.pk)
    answer = QualifyingAnswer.objects.get(subject=subject)
    assert answer.ok and answer.text
    assert answer.expected == "about 10:00, round 1" and answer.clock.hour == 10


def test_organiser_scores_and_human_controls_give_a_shared_rank_ranking(cast):
    question_set = small_set("Q one?", "Q two?")
    contest = contest_make(question_set=question_set)
    entered(contest, entrant_make("ada"), "Alpha")
    entered(contest, entrant_make("bob"), "Beta", minutes=1)
    services.contest_close(contest_id=contest.pk)
    for subject in [QualifyingSubject.objects.create(contest=contest, contest_entry=e) for e in contest.entries.all()]:
        services.qualifying_ask(subject_id=subject.pk)
    control = services.control_answers_record(contest_id=contest.pk, name="Control 1", answers={1: "Hi", 2: "Fine"})
    with pytest.raises(InvalidInput):
        services.control_answers_record(contest_id=contest.pk, name="Control 2", answers={9: "?"})
    scores = {"Alpha": [2, 1], "Beta": [1, 2], "Control 1": [2, 2]}
    for answer in QualifyingAnswer.objects.filter(subject__contest=contest).select_related(
        "subject__contest_entry__entry", "question"
    ):
        services.answer_score(
            answer_id=answer.pk, score=scores[str(answer.subject)][answer.question.order - 1], by=cast.olivia
        )
    with pytest.raises(InvalidInput):
        services.answer_score(answer_id=answer.pk, score=3, by=cast.olivia)
    pytest.importorskip("tournaments.loebner.rules.qualifying")
    table = selectors.qualifying_table(contest=contest)
    assert [(row["name"], row["score"]) for row in table] == [("Control 1", 4.0), ("Alpha", 3.0), ("Beta", 3.0)]
    assert table[1]["rank"] == table[2]["rank"] == 2 and control.is_control


def test_audience_votes_see_anonymised_answers_in_random_order_once_each(cast, client):
    question_set = small_set("Q one?")
    contest = contest_make(question_set=question_set, qualifying_scoring=Contest.Scoring.AUDIENCE)
    for i in range(4):
        entered(contest, entrant_make(f"e{i}"), f"Voted {i}", minutes=i)
    services.contest_close(contest_id=contest.pk)
    for item in contest.entries.all():
        services.qualifying_ask(subject_id=QualifyingSubject.objects.create(contest=contest, contest_entry=item).pk)
    question = question_set.questions.get()
    orders = {
        tuple(a.pk for a in selectors.audience_ballot(contest=contest, question_id=question.pk, voter_id=v))
        for v in range(1, 30)
    }
    assert len(orders) > 1  # shuffled per voter
    client.force_login(cast.oscar)
    page = client.get(f"/contests/{contest.pk}/vote/1/").content.decode()
    assert "Voted 0" not in page and "Simple" not in page  # anonymised: answers only
    target = selectors.audience_ballot(contest=contest, question_id=question.pk, voter_id=cast.oscar.pk)[0]
    client.post(f"/contests/{contest.pk}/vote/1/", {"answer": target.pk})
    with pytest.raises(Closed):
        services.audience_vote(contest_id=contest.pk, question_id=question.pk, answer_id=target.pk, voter=cast.oscar)
    assert selectors.qualifying_scores(contest=contest)[f"S{target.subject_id}"]["score"] == 1.0


def tied_contest(cast):
    """Two finalist places; "Top" scores 2, "Tied A" and "Tied B" 1 each: a tie across the cut."""
    question_set = small_set("Q one?")
    contest = contest_make(question_set=question_set, finalists=2)
    for i, name in enumerate(["Top", "Tied A", "Tied B"]):
        entered(contest, entrant_make(f"t{i}"), name, minutes=i)
    services.contest_close(contest_id=contest.pk)
    for item in contest.entries.all():
        services.qualifying_ask(subject_id=QualifyingSubject.objects.create(contest=contest, contest_entry=item).pk)
    marks = {"Top": 2, "Tied A": 1, "Tied B": 1}
    for answer in QualifyingAnswer.objects.filter(subject__contest=contest).select_related(
        "subject__contest_entry__entry"
    ):
        services.answer_score(answer_id=answer.pk, score=marks[str(answer.subject)], by=cast.olivia)
    return contest


def test_the_top_n_become_finalists_and_a_tie_across_the_cut_is_the_organisers(cast):
    contest = tied_contest(cast)
    with pytest.raises(InvalidInput, match="Tied A .*Tied B.* tie"):
        services.finalists_pick(contest_id=contest.pk)
    tied_a, tied_b = (contest.entries.get(entry__display_name=f"Tied {x}") for x in "AB")
    with pytest.raises(InvalidInput, match="missing Tied A"):
        services.finalists_pick(contest_id=contest.pk, order=[tied_b.pk])
    picked = services.finalists_pick(contest_id=contest.pk, order=[tied_b.pk, tied_a.pk])
    assert [str(p.entry) for p in picked] == ["Top", "Tied B"]
    assert list(contest.participants.values_list("label", "contest_entry__entry__display_name")) == [
        ("E1", "Top"),
        ("E2", "Tied B"),
    ]
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.FINALS


def test_the_organiser_breaks_the_tie_on_the_qualifying_page(cast, client):
    contest = tied_contest(cast)
    tied_a, tied_b = (contest.entries.get(entry__display_name=f"Tied {x}") for x in "AB")
    client.force_login(cast.olivia)
    page = client.get(f"/contests/{contest.pk}/qualifying/").content.decode()
    assert "tie across the cut for the last 1 finalist place:" in page
    assert f'name="place-{tied_a.pk}"' in page and f'name="place-{tied_b.pk}"' in page
    url = f"/contests/{contest.pk}/qualifying/"
    page = client.post(url, {"pick": "1", f"place-{tied_a.pk}": "1", f"place-{tied_b.pk}": "1"}, follow=True)
    assert "Give each tied entry a different place." in page.content.decode()
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.QUALIFYING
    page = client.post(url, {"pick": "1", f"place-{tied_a.pk}": "2", f"place-{tied_b.pk}": "1"}, follow=True)
    assert "Finalists: Top, Tied B." in page.content.decode()
    assert Contest.objects.get(pk=contest.pk).status == Contest.Status.FINALS
    assert 'id="pick"' not in page.content.decode()  # in the finals: nothing left to pick
    client.force_login(cast.jude)
    assert client.post(url, {"pick": "1"}).status_code == 403


def test_the_organiser_adds_a_human_control_and_scores_on_the_qualifying_page(cast, client):
    question_set = small_set("Q one?", "Q two?")
    contest = contest_make(question_set=question_set)
    entered(contest, entrant_make("ada"), "Alpha")
    entered(contest, entrant_make("bob"), "Beta", minutes=1)
    services.contest_close(contest_id=contest.pk)
    client.force_login(cast.olivia)
    client.post(
        f"/contests/{contest.pk}/qualifying/",
        {"control-name": "Control <b>1</b>", "control-1": "Hello!", "control-2": ""},
    )
    control = QualifyingSubject.objects.get(contest=contest, control_name="Control <b>1</b>")
    answer = control.answers.get()
    client.post(f"/contests/{contest.pk}/qualifying/", {f"score-{answer.pk}": "2"})
    page = client.get(f"/contests/{contest.pk}/qualifying/").content.decode()
    assert QualifyingAnswer.objects.get(pk=answer.pk).score == 2
    assert "Control &lt;b&gt;1&lt;/b&gt;" in page and "human control" in page and page.count('id="control"') == 1
    assert "<title>Test Prize: qualifying · Turing Arena</title>" in page
    client.force_login(cast.jude)
    assert client.get(f"/contests/{contest.pk}/qualifying/").status_code == 403
