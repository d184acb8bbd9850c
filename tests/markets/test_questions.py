"""Turing Trade's questions: per-bettor FIFO queues, one current question, round-robin after the asker."""

import pytest
from django.utils import timezone

from core.errors import Closed, InvalidInput, NotAllowed
from markets import selectors, services
from markets.models import Question

from .conftest import running_game

pytestmark = pytest.mark.django_db


def ask(game, user, text):
    return services.question_ask(game_id=game.pk, user=user, text=text)


def answer(game, cast, text="an answer"):
    current = Question.objects.get(game=game, status="current")
    services.answer_submit(game_id=game.pk, question_id=current.pk, text=text, user=cast.connie)
    return current


def current_text(game):
    q = Question.objects.filter(game=game, status="current").first()
    return q and q.text


def test_first_question_becomes_current_others_queue(cast, bettors):
    game = running_game(cast, bettors)
    ask(game, cast.june, "b1")  # bettor 2
    ask(game, cast.june, "b2")
    ask(game, cast.jude, "a1")  # bettor 1
    assert current_text(game) == "b1"
    assert list(Question.objects.filter(game=game, status="queued").values_list("text", flat=True)) == ["b2", "a1"]


def test_round_robin_from_the_first_nonempty_queue_after_the_asker(cast, bettors):
    jude, june, carl, oscar = bettors  # numbers 1..4
    game = running_game(cast, bettors)
    ask(game, carl, "c1")  # current (bettor 3)
    ask(game, jude, "a1")
    ask(game, jude, "a2")
    ask(game, june, "b1")
    ask(game, carl, "c2")
    order = []
    while current_text(game):
        order.append(answer(game, cast).text)
    # after 3: 4 (empty), 1 -> a1; after 1: 2 -> b1; after 2: 3 -> c2; after 3: 4, 1 -> a2
    assert order == ["c1", "a1", "b1", "c2", "a2"]
    numbers = list(Question.objects.filter(game=game).order_by("number").values_list("text", flat=True))
    assert numbers == order


def test_sole_asker_is_served_fifo(cast, bettors):
    game = running_game(cast, bettors)
    for text in ["x1", "x2", "x3"]:
        ask(game, cast.oscar, text)
    assert [answer(game, cast).text for _ in range(3)] == ["x1", "x2", "x3"]


def test_queued_questions_are_invisible_to_everyone_but_their_author(cast, bettors):
    game = running_game(cast, bettors)
    ask(game, cast.jude, "current one")
    ask(game, cast.june, "june's secret plan")
    for user in (cast.jude, cast.carl):
        state = selectors.bettor_state(game=game, participant=selectors.participant_for(game=game, user=user))
        assert "june's secret plan" not in str(state)
    assert "june's secret plan" not in str(selectors.target_state(game=game))
    assert "june's secret plan" not in str(selectors.bettor_state(game=game, participant=None))
    own = selectors.bettor_state(game=game, participant=selectors.participant_for(game=game, user=cast.june))
    assert [q["text"] for q in own["queue"]] == ["june's secret plan"]


def test_answer_text_is_delayed_for_everyone_but_the_asker(cast, bettors, settings):
    game = running_game(cast, bettors, answer_delay_s=5)
    ask(game, cast.jude, "are you human?")
    answer(game, cast, "of course")

    def seen(user):
        participant = selectors.participant_for(game=game, user=user) if user else None
        return selectors.bettor_state(game=game, participant=participant)["answered"][0]["answer"]["text"]

    assert seen(cast.jude) == "of course"
    assert seen(cast.june) is None and seen(None) is None
    assert selectors.target_state(game=game)["answered"][0]["answer"]["text"] == "of course"
    later = timezone.now() + timezone.timedelta(seconds=5.01)
    from unittest import mock

    with mock.patch("django.utils.timezone.now", return_value=later):
        assert seen(cast.june) == "of course"


def test_target_answers_only_the_current_question_once(cast, bettors):
    game = running_game(cast, bettors)
    q1 = ask(game, cast.jude, "one")
    q2 = ask(game, cast.june, "two")
    with pytest.raises(Closed):
        services.answer_submit(game_id=game.pk, question_id=q2.pk, text="early", user=cast.connie)
    services.answer_submit(game_id=game.pk, question_id=q1.pk, text="first", user=cast.connie)
    with pytest.raises(Closed):
        services.answer_submit(game_id=game.pk, question_id=q1.pk, text="again", user=cast.connie)
    with pytest.raises(NotAllowed):
        services.answer_submit(game_id=game.pk, question_id=q2.pk, text="not the target", user=cast.jude)
    assert q1.answer.text == "first" and not hasattr(Question.objects.get(pk=q2.pk), "answer")


def test_bad_questions_change_nothing(cast, bettors):
    game = running_game(cast, bettors[:2])
    with pytest.raises(NotAllowed):
        ask(game, cast.oscar, "not a bettor")
    with pytest.raises(NotAllowed):
        ask(game, cast.connie, "the target")
    with pytest.raises(InvalidInput):
        ask(game, cast.jude, "   ")
    with pytest.raises(InvalidInput):
        ask(game, cast.jude, "x" * 5000)
    services.game_settle(game_id=game.pk, force=True)
    with pytest.raises(Closed):
        ask(game, cast.jude, "too late")
    assert not Question.objects.filter(game=game).exists()
