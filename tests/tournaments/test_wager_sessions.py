"""Wager sessions through the services and pages: the layout, blindness, verdicts and ranks, results with
the committee's aggregation, amendments, votes, the append-only audit log, the calendar, the report."""

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone

from arena import services as arena
from arena.models import Interrogation, Status, Verdict
from arena.selectors.interrogations import judge_state
from core.errors import Closed, InvalidInput, NotAllowed
from tournaments.wager import selectors, services
from tournaments.wager.models import AuditEntry, Interview, TrialVerdict

from .wager_helpers import committee_of_three, fooled_by, people, run_trial, wager_session


@pytest.fixture
def session(cast):
    return wager_session(cast)


def test_a_session_lays_out_every_trial_on_the_plan(session, cast):
    trials = list(session.trials.all())
    assert [t.number for t in trials] == [1, 2, 3]
    for trial in trials:
        interviews = list(trial.interviews.select_related("interrogation"))
        assert len(interviews) == 12  # 3 judges x 4 candidates
        assert sorted(set(trial.aliases.values())) == ["A", "B", "C", "D"]
        for interview in interviews:
            assert interview.interrogation.kind == Interrogation.Kind.ONE_TO_ONE
            assert interview.interrogation.time_limit_s == 2 * 3600
            assert interview.interrogation.status == Status.SCHEDULED
        starts = sorted({i.starts_at for i in interviews})
        assert [b - a for a, b in zip(starts, starts[1:])] == [dt.timedelta(hours=2)] * 3
    assert trials[1].starts_at - trials[0].starts_at == dt.timedelta(hours=8)
    assert [t.aliases for t in trials] != [trials[0].aliases] * 3  # fresh aliases each trial


def test_the_rules_numbers_are_enforced(cast):
    judges, foils = people(cast)
    committee = committee_of_three()
    base = dict(
        committee=committee,
        title="t",
        computer=cast.simple,
        starts_at=dt.datetime(2029, 1, 1, tzinfo=dt.UTC),
        called_by="Rae",
        called_by_kind="member",
        funded_by="Rae",
    )
    with pytest.raises(InvalidInput, match="three judges"):
        services.session_create(**base, judges=judges[:2], foils=foils)
    with pytest.raises(InvalidInput, match="trials"):
        services.session_create(**base, judges=judges, foils=foils, trials=2)
    with pytest.raises(InvalidInput, match="different people"):
        services.session_create(**base, judges=judges, foils=[judges[0], *foils[1:]])
    with pytest.raises(InvalidInput, match="aggregation"):
        services.session_create(**base, judges=judges, foils=foils, aggregation="most")
    assert (
        services.session_create(
            **base, judges=judges[:1], foils=foils[:2], trials=1, rehearsal=True, interview_minutes=2
        ).trials.count()
        == 1
    )


def test_the_committee_is_appointed_as_the_rules_say(cast):
    from tournaments.wager.models import Committee

    committee = Committee.objects.create(name="c")
    with pytest.raises(InvalidInput, match="seat them first"):
        services.committee_member_appoint(committee=committee, name="T", role="third", appointed_by="members")
    with pytest.raises(InvalidInput, match="appointed by"):
        services.committee_member_appoint(committee=committee, name="R", role="for_pass", appointed_by="members")
    services.committee_member_appoint(committee=committee, name="R", role="for_pass", appointed_by="party")
    with pytest.raises(InvalidInput, match="already"):
        services.committee_member_appoint(committee=committee, name="R2", role="for_pass", appointed_by="foundation")
    assert services.committee_member_appoint(committee=committee, name="T", role="third", appointed_by="foundation")


def test_judges_see_aliases_only_and_the_console_offers_no_verdict(session, cast):
    trial = session.trials.first()
    interview = trial.interviews.get(judge=cast.jude, candidate="computer")
    arena.interrogation_start(interrogation_id=interview.interrogation_id)
    arena.interrogation_end(interrogation_id=interview.interrogation_id, reason="judge")
    state = judge_state(interrogation=interview.interrogation)
    text = str(state)
    assert f"Candidate {trial.aliases['computer']}" in state["title"]
    assert "Simple Bot" not in text and "computer" not in text and "machine" not in text.replace("'kind'", "")
    assert state["verdict_here"] is False and state["reveal"] is None
    with pytest.raises(NotAllowed, match="contest"):  # a verdict here would reveal the candidate
        arena.verdict_submit(
            interrogation_id=interview.interrogation_id, judge=cast.jude, choice="machine", confidence=90
        )
    assert not Verdict.objects.exists()


def test_an_ordinary_interrogation_still_takes_its_verdict(cast):
    interrogation = arena.interrogation_create(judge=cast.jude, witnesses=[cast.simple], title="plain")
    arena.interrogation_start(interrogation_id=interrogation.pk)
    arena.interrogation_end(interrogation_id=interrogation.pk, reason="judge")
    assert judge_state(interrogation=interrogation)["verdict_here"] is True
    assert arena.verdict_submit(
        interrogation_id=interrogation.pk, judge=cast.jude, choice="machine", confidence=90
    ).correct


def test_verdicts_wait_for_the_judges_interviews_and_are_validated(session, cast):
    trial = session.trials.first()
    a = trial.aliases
    verdicts = {alias: "human" for alias in a.values()}
    ranks = {alias: r for r, alias in enumerate(sorted(a.values()), start=1)}
    with pytest.raises(Closed, match="interviews"):
        services.trial_verdicts_submit(trial_id=trial.pk, judge=cast.jude, verdicts=verdicts, ranks=ranks)
    run_trial(trial)
    with pytest.raises(NotAllowed):
        services.trial_verdicts_submit(trial_id=trial.pk, judge=cast.oscar, verdicts=verdicts, ranks=ranks)
    twice = dict(ranks, **{a["F1"]: ranks[a["F2"]]})
    with pytest.raises(InvalidInput) as refused:
        services.trial_verdicts_submit(trial_id=trial.pk, judge=cast.jude, verdicts=verdicts, ranks=twice)
    assert "judge J1" in str(refused.value) and "computer" not in str(refused.value)
    missing = {k: v for k, v in verdicts.items() if k != a["computer"]}
    with pytest.raises(InvalidInput, match=f"Candidate {a['computer']}"):  # named as the judge knows it
        services.trial_verdicts_submit(trial_id=trial.pk, judge=cast.jude, verdicts=missing, ranks=ranks)
    with pytest.raises(InvalidInput, match="no candidate Z"):
        services.trial_verdicts_submit(
            trial_id=trial.pk, judge=cast.jude, verdicts={**verdicts, "Z": "human"}, ranks=ranks
        )
    with pytest.raises(InvalidInput, match="from 1 to 4"):
        services.trial_verdicts_submit(
            trial_id=trial.pk, judge=cast.jude, verdicts=verdicts, ranks=dict(ranks, **{a["F1"]: 9})
        )
    assert not TrialVerdict.objects.exists()
    services.trial_verdicts_submit(trial_id=trial.pk, judge=cast.jude, verdicts=verdicts, ranks=ranks)
    assert TrialVerdict.objects.filter(judge=cast.jude).count() == 4
    with pytest.raises(Closed, match="already"):
        services.trial_verdicts_submit(trial_id=trial.pk, judge=cast.jude, verdicts=verdicts, ranks=ranks)


def test_results_per_trial_and_session_follow_the_committee_s_aggregation(session, cast):
    judges = [j.user for j in session.judges.all()]
    trials = list(session.trials.all())
    for trial, fooled in zip(trials, (2, 1, 3)):  # passes, fails (one fooled), passes
        run_trial(trial)
        fooled_by(trial, judges, fooled)
    result = selectors.session_result(session=session)
    assert [t.score.passed for t in result.trials] == [True, False, True]
    assert [t.score.fooled for t in result.trials] == [2, 1, 3]
    assert result.complete and result.passed is True and result.trials_passed == 2
    services.session_aggregation_set(session_id=session.pk, aggregation="all", by=cast.olivia)
    session.refresh_from_db()
    assert selectors.session_result(session=session).passed is False
    assert selectors.session_document(session=session)["passed"] is False
    assert AuditEntry.objects.filter(action="session.aggregation", detail={"from": "majority", "to": "all"}).exists()


def test_a_trial_is_not_scored_until_every_judge_has_judged(session, cast):
    trial = session.trials.first()
    run_trial(trial)
    fooled_by(trial, [cast.jude], 1)
    result = selectors.trial_result(trial=trial)
    assert not result.complete and result.score is None and result.judges_done == 1


def test_amendments_only_for_the_four_reasons(session, cast):
    with pytest.raises(InvalidInput, match="only if"):
        services.amendment_record(
            committee=session.committee,
            reason="convenient",
            agreed_by="parties",
            agreed_names="Ray Kurzweil, Mitchell Kapor",
            text="Make it one hour.",
        )
    amendment = services.amendment_record(
        committee=session.committee,
        session=session,
        reason="infeasible",
        agreed_by="committee",
        agreed_names="Rae, Mitch, Tess",
        text="<b>New</b> text",
        by=cast.olivia,
    )
    assert amendment.get_reason_display().startswith("(iv)")
    entry = AuditEntry.objects.get(action="rules.amend")
    assert entry.actor_name == "olivia" and entry.detail["reason"] == "infeasible"


def test_deadlock_votes_are_recorded_and_decided_by_majority(session, cast):
    vote = services.deadlock_vote_open(committee=session.committee, session=session, question="Is a pause allowed?")
    rae, mitch, tess = session.committee.members.order_by("pk")
    services.ballot_cast(vote_id=vote.pk, member=rae, choice="yes")
    assert services.ballot_cast(vote_id=vote.pk, member=mitch, choice="no").outcome == ""
    with pytest.raises(Closed):
        services.ballot_cast(vote_id=vote.pk, member=mitch, choice="yes")
    assert services.ballot_cast(vote_id=vote.pk, member=tess, choice="yes").outcome == "yes"
    with pytest.raises(Closed, match="decided"):
        services.ballot_cast(vote_id=vote.pk, member=tess, choice="no")


def test_the_audit_log_is_append_only(session, cast):
    entry = AuditEntry.objects.filter(action="session.create").get()
    assert entry.actor_name == "olivia" and entry.detail["trials"] == 3
    entry.action = "nothing happened"
    with pytest.raises(PermissionDenied):
        entry.save()
    with pytest.raises(PermissionDenied):
        entry.delete()
    with pytest.raises(PermissionDenied):
        AuditEntry.objects.filter(pk=entry.pk).update(action="x")
    with pytest.raises(PermissionDenied):
        AuditEntry.objects.all().delete()
    assert AuditEntry.objects.get(pk=entry.pk).action == "session.create"


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the database trigger is PostgreSQL's")
def test_the_database_refuses_changes_to_the_audit_log(session):
    from django.db import DatabaseError

    pk = AuditEntry.objects.get(action="session.create").pk
    for sql in ("UPDATE wager_auditentry SET action = 'x' WHERE id = %s", "DELETE FROM wager_auditentry WHERE id = %s"):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(sql, [pk])
    assert AuditEntry.objects.get(pk=pk).action == "session.create"


def test_the_audit_log_has_no_add_change_or_delete_in_the_admin(session, cast, client):
    client.force_login(cast.olivia)
    pk = AuditEntry.objects.get(action="session.create").pk
    assert client.get(reverse("admin:wager_auditentry_changelist")).status_code == 200
    assert client.get(reverse("admin:wager_auditentry_add")).status_code == 403
    assert client.post(reverse("admin:wager_auditentry_delete", args=[pk]), {"post": "yes"}).status_code == 403
    client.raise_request_exception = False
    assert client.post(reverse("admin:wager_auditentry_change", args=[pk]), {"action": "x"}).status_code == 403
    assert AuditEntry.objects.get(pk=pk).action == "session.create"


def test_moving_interviews_on_the_calendar(session, cast):
    trial = session.trials.first()
    first = trial.interviews.get(slot=1, judge=cast.jude)
    second = trial.interviews.get(slot=2, judge=cast.jude)
    with pytest.raises(InvalidInput, match="two interviews at once"):
        services.interview_move(
            interview_id=second.pk, starts_at=first.starts_at + dt.timedelta(minutes=30), by=cast.olivia
        )
    assert Interview.objects.get(pk=second.pk).starts_at == second.starts_at  # nothing moved
    later = session.trials.last().interviews.order_by("-starts_at").first().starts_at + dt.timedelta(days=1)
    services.interview_move(interview_id=second.pk, starts_at=later, by=cast.olivia)
    assert Interrogation.objects.get(pk=second.interrogation_id).scheduled_at == later
    assert AuditEntry.objects.filter(action="interview.move").count() == 1
    services.trial_reschedule(trial_id=trial.pk, starts_at=trial.starts_at - dt.timedelta(days=2), by=cast.olivia)
    assert Interview.objects.get(pk=first.pk).starts_at == first.starts_at - dt.timedelta(days=2)
    arena.interrogation_start(interrogation_id=first.interrogation_id)
    with pytest.raises(Closed):
        services.interview_move(interview_id=first.pk, starts_at=later, by=cast.olivia)


def test_session_page_judge_sees_aliases_and_gives_verdicts(session, cast, client):
    trial = session.trials.first()
    run_trial(trial)
    client.force_login(cast.jude)
    page = client.get(reverse("wager:session", args=[session.pk])).content.decode()
    assert "Candidate A" in page and "Simple Bot" not in page and 'id="calendar"' not in page
    assert 'id="verdicts-1"' in page
    a = trial.aliases
    form = {f"verdict-{x}": "human" for x in a.values()}
    form.update({f"rank-{a['computer']}": "1", f"rank-{a['F1']}": "1", f"rank-{a['F2']}": "3", f"rank-{a['F3']}": "4"})
    page = client.post(reverse("wager:trial_verdicts", args=[trial.pk]), form, follow=True).content.decode()
    assert "each rank from 1 to 4 must be given once" in page and not TrialVerdict.objects.exists()
    form[f"rank-{a['F1']}"] = "2"
    page = client.post(reverse("wager:trial_verdicts", args=[trial.pk]), form, follow=True).content.decode()
    assert "are recorded" in page and TrialVerdict.objects.filter(judge=cast.jude).count() == 4
    assert f"Candidate {a['computer']}: human, rank 1" in page


def test_who_may_open_the_pages(session, cast, client):
    url, report = reverse("wager:session", args=[session.pk]), reverse("wager:report", args=[session.pk])
    assert client.get(url).status_code == 302  # to the login
    assert client.get(report).status_code == 404  # not public before the verdicts are in
    client.force_login(cast.oscar)
    assert client.get(url).status_code == 404
    assert client.get(reverse("wager:sessions")).content.decode().count("Wager 2029") == 0
    client.force_login(cast.olivia)
    page = client.get(url).content.decode()
    assert 'id="calendar"' in page and "Simple Bot" not in page.split('id="calendar"')[0]
    assert client.get(report).status_code == 200


@pytest.mark.slow
def test_the_report_escapes_text_and_lists_signed_chain_heads(cast, client):
    session = wager_session(cast, title="<script>alert(1)</script>")
    judges = [j.user for j in session.judges.all()]
    for trial in session.trials.all():
        run_trial(trial, say=True)
        fooled_by(trial, judges, 2)
    services.amendment_record(
        committee=session.committee,
        session=session,
        reason="unfair",
        agreed_by="parties",
        agreed_names="Ray & Mitch",
        text="<img src=x onerror=alert(1)>",
    )
    services.session_publish(session_id=session.pk, by=cast.olivia)
    page = client.get(reverse("wager:report", args=[session.pk])).content.decode()  # public now
    assert "<script>alert(1)" not in page and "&lt;script&gt;" in page and "<img src=x" not in page
    assert "a majority of the trials (default)" in page and "(iii) the rules are unfair" in page
    interview = Interview.objects.filter(trial__session=session, candidate="F1").select_related("interrogation").first()
    seal = interview.interrogation.conversations.get().seal
    assert seal.message_count == 2 and seal.head_hash in page and seal.signature in page
    assert "python -m core.hashchain verify transcript.json --key keys.json" in page
    assert f"/transcripts/{interview.interrogation.public_id}.json" in page
    assert "the computer passed the Turing Test" in page


@pytest.mark.slow
def test_the_demo_seed_is_idempotent(transactional_db, task_worker, cast):
    from tournaments.wager.demo import demo_wager_seed
    from tournaments.wager.models import Session

    session, logins = demo_wager_seed(reply_timeout_s=5)
    again, _ = demo_wager_seed(reply_timeout_s=5)
    assert again.pk == session.pk and Session.objects.count() == 1
    first, second, third = session.trials.all()
    assert selectors.trial_result(trial=first).complete
    statuses = set(second.interviews.values_list("interrogation__status", flat=True))
    assert statuses == {Status.RUNNING, Status.SCHEDULED}
    assert all(i.interrogation.conversations.get().seal for i in first.interviews.select_related("interrogation"))
    assert ("wager-judge1", "wager-judge1-demo", "wager judge") in logins
    # the calendar agrees with each interview's status: ended ones lie in the past, scheduled ones ahead
    now = timezone.now()
    for interview in Interview.objects.filter(trial__session=session).select_related("interrogation"):
        ends = interview.starts_at + dt.timedelta(seconds=interview.interrogation.time_limit_s)
        status = interview.interrogation.status
        assert (status != Status.ENDED or ends <= now) and (status != Status.SCHEDULED or interview.starts_at > now)
        assert status != Status.RUNNING or interview.starts_at <= now < ends


def test_the_committee_works_in_the_admin(cast, client):
    from tournaments.wager.models import Session

    judges, foils = people(cast)
    committee = committee_of_three()
    client.force_login(cast.olivia)
    form = {
        "committee": committee.pk,
        "title": "Admin session",
        "called_by": "Mitch",
        "called_by_kind": "member",
        "funded_by": "Mitch",
        "computer": cast.eliza.pk,
        "trials_planned": 3,
        "interview_minutes": 120,
        "break_minutes": 15,
        "aggregation": "majority",
        "starts_at_0": "2029-06-01",
        "starts_at_1": "09:00:00",
        "judges": [u.pk for u in judges],
        "foils": [u.pk for u in foils],
        "seed": "",
    }
    response = client.post(reverse("admin:wager_session_add"), form)
    assert response.status_code == 302, response.context["adminform"].form.errors if response.context else ""
    session = Session.objects.get(title="Admin session")
    assert session.trials.count() == 3 and Interview.objects.filter(trial__session=session).count() == 36
    # with a 15-minute break, slot 2 starts 2 h 15 after slot 1
    slots = sorted({i.starts_at for i in session.trials.first().interviews.all()})
    assert slots[1] - slots[0] == dt.timedelta(hours=2, minutes=15)
    assert AuditEntry.objects.get(action="session.create").actor_name == "olivia"
    client.post(reverse("admin:wager_session_change", args=[session.pk]), {"aggregation": "any"})
    session.refresh_from_db()
    assert session.aggregation == "any" and AuditEntry.objects.filter(action="session.aggregation").exists()
    assert (
        client.get(reverse("admin:wager_interview_changelist") + f"?trial__session__id__exact={session.pk}").status_code
        == 200
    )
    client.post(
        reverse("admin:wager_amendment_add"),
        {"committee": committee.pk, "reason": "convenient", "agreed_by": "parties", "agreed_names": "x", "text": "y"},
    )
    assert not session.committee.amendments.exists()  # only the four reasons are offered


def test_moving_an_interview_in_the_admin_is_checked(session, cast, client):
    client.force_login(cast.olivia)
    assert client.get(reverse("admin:wager_session_change", args=[session.pk])).status_code == 200
    trial = session.trials.first()
    first, second = trial.interviews.get(slot=1, judge=cast.jude), trial.interviews.get(slot=2, judge=cast.jude)
    clash = first.starts_at + dt.timedelta(minutes=30)
    page = client.post(
        reverse("admin:wager_interview_change", args=[second.pk]),
        {"starts_at_0": clash.strftime("%Y-%m-%d"), "starts_at_1": clash.strftime("%H:%M:%S")},
        follow=True,
    ).content.decode()
    assert "two interviews at once" in page
    assert Interview.objects.get(pk=second.pk).starts_at == second.starts_at
