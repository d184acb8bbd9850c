"""A wager session's judges learn which candidate was the computer only when the session's results are
published (every trial's verdicts in, the report public): not from a trial's scores on the session's page, nor
from an interview's crowd market. Their home page leads them to their next interview, then to their verdicts."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from arena.next_steps import judge_next_step, judge_next_steps
from arena.selectors.interrogations import judge_state
from arena.services.verdicts import reveal_allowed
from tournaments.wager import selectors

from .wager_helpers import fooled_by, run_trial, wager_session

pytestmark = pytest.mark.django_db


def _judges(session):
    return [seat.user for seat in session.judges.order_by("position")]


def test_an_interviews_truth_waits_for_the_sessions_results(cast):
    session = wager_session(cast)
    trials = list(session.trials.order_by("number"))
    interview = trials[0].interviews.select_related("interrogation").first()
    run_trial(trials[0])
    fooled_by(trials[0], _judges(session), 2)
    assert selectors.trial_result(trial=trials[0]).complete
    assert reveal_allowed(interview.interrogation_id) is False
    state = judge_state(interrogation=interview.interrogation)
    assert state["reveal"] is None and state["correct"] is None and state["verdict_here"] is False
    for trial in trials[1:]:
        run_trial(trial)
        fooled_by(trial, _judges(session), 1)
    assert selectors.results_published(session=session)
    assert reveal_allowed(interview.interrogation_id) is True


def test_an_interviews_crowd_market_settles_when_the_sessions_results_are_published(cast):
    from markets.conversation import selectors as xselectors
    from markets.conversation.services import xmarkets_ensure, xmarkets_sweep
    from markets.models import ConversationMarket, Game

    session = wager_session(cast, spectator_markets=True, spectator_delay_s=0)
    trials = list(session.trials.order_by("number"))
    interview = trials[0].interviews.get(candidate="computer", judge=cast.jude)
    xmarkets_ensure(interrogation_ids=[interview.interrogation_id])
    run_trial(trials[0])
    fooled_by(trials[0], _judges(session), 2)  # the trial is judged: its verdicts are in
    xmarkets_sweep()
    market = ConversationMarket.objects.select_related("game", "interrogation").get(
        interrogation_id=interview.interrogation_id
    )
    assert market.game.status != Game.Status.SETTLED and market.game.target_entry_id is None
    assert xselectors.xmarket_state(cm=market, user=AnonymousUser())["reveal"] is None
    for trial in trials[1:]:
        run_trial(trial)
        fooled_by(trial, _judges(session), 2)
    xmarkets_sweep()
    market = ConversationMarket.objects.select_related("game", "interrogation").get(pk=market.pk)
    assert market.game.status == Game.Status.SETTLED
    assert xselectors.xmarket_state(cm=market, user=AnonymousUser())["reveal"]["human"] is False


def test_a_judge_sees_no_trial_score_until_the_sessions_results_are_published(cast, client):
    session = wager_session(cast)
    trials = list(session.trials.order_by("number"))
    run_trial(trials[0])
    fooled_by(trials[0], _judges(session), 2)
    url = reverse("wager:session", args=[session.pk])
    client.force_login(cast.jude)
    page = client.get(url).content.decode()
    assert "the scores are shown when the session's results are published" in page
    assert 'class="hd"' not in page and "trial(s) passed" not in page and "2 of 3" not in page
    client.force_login(cast.olivia)  # an organiser follows the scores live
    page = client.get(url).content.decode()
    assert 'class="hd"' in page and "1 trial(s) passed" in page

    for trial in trials[1:]:
        run_trial(trial)
        fooled_by(trial, _judges(session), 2)
    client.force_login(cast.jude)
    page = client.get(url).content.decode()
    assert page.count('class="hd"') == 3 and "3 trial(s) passed" in page
    assert "the computer passed the Turing Test" in page


def test_a_wager_judge_is_led_to_the_next_interview_then_to_the_trials_verdicts(cast, client):
    session = wager_session(cast)
    trial = session.trials.get(number=1)
    mine = list(trial.interviews.filter(judge=cast.jude).select_related("interrogation").order_by("starts_at"))
    step = judge_next_step(user=cast.jude)
    assert step.url == f"/judge/{mine[0].interrogation.public_id}/"
    assert step.text == f"{session.title}, trial 1: Candidate {trial.aliases[mine[0].candidate]}: your next interview"
    client.force_login(cast.jude)
    assert f'href="{step.url}" class="button" id="next-step"' in client.get("/").content.decode()

    run_trial(trial)  # every interview of the trial over: the verdicts are due, on the session's page
    steps = judge_next_steps(user=cast.jude)
    verdicts = f"{session.title}, trial 1: give your verdicts"
    assert steps[0].text == verdicts and steps[0].url == reverse("wager:session", args=[session.pk])
    state = judge_state(interrogation=mine[-1].interrogation)  # the console's end screen
    assert state["verdict_here"] is False and state["next"]["text"] == verdicts
    fooled_by(trial, [cast.jude], 1)
    step = judge_next_step(user=cast.jude)
    assert step.text.startswith(f"{session.title}, trial 2: ") and step.text.endswith("your next interview")
