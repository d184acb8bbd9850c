"""Long Now wager sessions: committee, trials of long interviews, verdicts, ranks, verifiable report."""

from django.apps import AppConfig


def _interview_verdict_elsewhere(interrogation_id: int) -> bool:
    from tournaments.wager.models import Interview

    return Interview.objects.filter(interrogation_id=interrogation_id).exists()


def _interview_judge_call(interrogation_id: int, side: str):
    """A conversation market's reveal: the interview's judge has given their verdict on its candidate."""
    from markets.reveals import JudgeCall
    from tournaments.wager.models import Interview, TrialVerdict

    interview = Interview.objects.filter(interrogation_id=interrogation_id).first()
    verdict = (
        interview
        and TrialVerdict.objects.filter(
            trial_id=interview.trial_id, judge_id=interview.judge_id, candidate=interview.candidate
        ).first()
    )
    if not verdict:
        return None
    return JudgeCall(
        pick=verdict.verdict, p_event=1.0 if verdict.verdict == "human" else 0.0, confidence=None, source="wager"
    )


def _interview_markets(interrogation_ids) -> dict:
    """An interview gets a crowd market on "this candidate is human" where its session allows spectators."""
    from markets.policies import spectator_policy
    from tournaments.wager.models import Interview

    interviews = Interview.objects.filter(interrogation_id__in=interrogation_ids).select_related("trial__session")
    return spectator_policy((interview.interrogation_id, interview.trial.session) for interview in interviews)


def _session_insiders(interrogation) -> set:
    """Until every trial is judged, a session's judges and foils watch none of its interviews."""
    from tournaments.wager.models import Interview, SessionFoil, SessionJudge
    from tournaments.wager.selectors import session_result

    interview = Interview.objects.filter(interrogation=interrogation).select_related("trial__session").first()
    if interview is None or session_result(session=interview.trial.session).complete:
        return set()
    session_id = interview.trial.session_id
    return set(SessionJudge.objects.filter(session_id=session_id).values_list("user_id", flat=True)) | set(
        SessionFoil.objects.filter(session_id=session_id).values_list("user_id", flat=True)
    )


def _report_reader(interrogation, user) -> bool:
    """An interview's transcript is readable by whoever may read its session's report (its JSON links)."""
    from tournaments.wager.selectors import interview_transcript_readable

    return interview_transcript_readable(interrogation=interrogation, user=user)


def _interview_reveal(interrogation_id: int) -> bool:
    """An interview's truth waits for its session's published results."""
    from tournaments.wager.selectors import interrogation_reveal_allowed

    return interrogation_reveal_allowed(interrogation_id)


def _judge_next_steps(user):
    from tournaments.wager.selectors import judge_next_steps

    return judge_next_steps(user)


class WagerConfig(AppConfig):
    name = "tournaments.wager"
    label = "wager"
    verbose_name = "Long Now wager sessions"

    def ready(self):
        # A wager interview's verdict is given for the whole trial at once, on the session's page: the arena
        # console must offer none (a per-interview verdict would reveal the candidate).
        from arena.services.verdicts import verdict_elsewhere_register

        verdict_elsewhere_register(_interview_verdict_elsewhere)

        from arena.next_steps import next_steps_register
        from arena.services.verdicts import reveal_rule_register

        # which candidate was the computer is told when the session's results are published (its report)
        reveal_rule_register(_interview_reveal)
        next_steps_register(_judge_next_steps)  # their next interview, a trial's verdicts due

        from arena.results import source_register
        from tournaments.wager.results import WagerResults

        source_register(WagerResults())  # the trials' verdicts on the arena's results pages, as "wager"

        from markets.policies import xmarket_insiders_register, xmarket_policy_register
        from markets.reveals import reveal_source_register

        reveal_source_register(_interview_judge_call)  # crowd markets on interviews settle at its verdict
        xmarket_policy_register(_interview_markets)
        xmarket_insiders_register(_session_insiders)

        from arena.selectors.interrogations import transcript_readers_register

        transcript_readers_register(_report_reader)  # the report's JSON links answer for the report's readers
