"""Loebner Prize contests: entries, qualifying, Latin-square rounds, paired comparisons, scoring."""

from django.apps import AppConfig


def _meeting_markets(interrogation_ids) -> dict:
    """A meeting gets a crowd market where its contest allows spectators, its delay behind the judge."""
    from markets.policies import spectator_policy
    from tournaments.loebner.models import Meeting

    meetings = Meeting.objects.filter(interrogation_id__in=interrogation_ids).select_related("round__contest")
    return spectator_policy((meeting.interrogation_id, meeting.round.contest) for meeting in meetings)


def _contest_insiders(interrogation) -> set:
    """Until its results are published, a contest's judges and confederates watch none of its meetings."""
    from tournaments.loebner.models import Contest, Meeting, Participant

    contest_id = (
        Meeting.objects.filter(interrogation=interrogation)
        .exclude(round__contest__status=Contest.Status.DONE)
        .values_list("round__contest_id", flat=True)
        .first()
    )
    if contest_id is None:
        return set()
    return set(Participant.objects.filter(contest_id=contest_id, user__isnull=False).values_list("user_id", flat=True))


def _meeting_reveal(interrogation_id: int) -> bool:
    """A meeting's truth waits for its contest's published results."""
    from tournaments.loebner.selectors import interrogation_reveal_allowed

    return interrogation_reveal_allowed(interrogation_id)


def _judge_next_steps(user):
    from tournaments.loebner.selectors import judge_next_steps

    return judge_next_steps(user)


class LoebnerConfig(AppConfig):
    name = "tournaments.loebner"
    label = "loebner"
    verbose_name = "Loebner Prize contests"

    def ready(self):
        from arena.results import source_register
        from tournaments.loebner.results import LoebnerResults

        source_register(LoebnerResults())  # the contests' verdicts on the arena's results pages, as "loebner"

        from markets.policies import xmarket_insiders_register, xmarket_policy_register

        xmarket_policy_register(_meeting_markets)
        xmarket_insiders_register(_contest_insiders)

        from arena.selectors.interrogations import transcript_names_register
        from tournaments.loebner.selectors import meeting_pseudonyms

        transcript_names_register(meeting_pseudonyms)  # published transcripts name people J1, C1, E1

        from arena.services import interrogation_ended_register, sweep_register
        from tournaments.loebner.services.rounds import meeting_ended, rounds_tick_running

        interrogation_ended_register(meeting_ended)  # a round ends with its last meeting
        sweep_register(rounds_tick_running)  # and the sweep finishes what a crash left undone

        from arena.next_steps import next_steps_register
        from arena.services.verdicts import reveal_rule_register

        # a judge learns which witness was which, and whether they were right, when the results are published
        reveal_rule_register(_meeting_reveal)
        next_steps_register(_judge_next_steps)  # their next meeting, a verdict due, their ranks
