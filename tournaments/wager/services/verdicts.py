"""After a trial's interviews, each judge's verdict (human or machine) and rank (1 least human .. N most
human) for every candidate, given by the aliases the judge saw."""

from django.db import transaction
from django.utils import timezone

from arena.models import Status
from arena.services import results_version_bump
from core.errors import Closed, InvalidInput, NotAllowed
from tournaments.wager import rules
from tournaments.wager.models import Trial, TrialVerdict


def trial_verdicts_submit(*, trial_id: int, judge, verdicts, ranks) -> list[TrialVerdict]:
    """`verdicts` {alias: "human"|"machine"} and `ranks` {alias: 1..N} for every candidate of the trial, once,
    when all of this judge's interviews in the trial have ended. Final: a judge cannot change them."""
    with transaction.atomic():
        trial = Trial.objects.select_for_update().select_related("session").get(pk=trial_id)
        if judge is None or not trial.session.judges.filter(user_id=judge.pk).exists():
            raise NotAllowed("Only the judges of this wager session give verdicts.")
        interviews = list(trial.interviews.filter(judge_id=judge.pk).select_related("interrogation"))
        if not interviews or any(i.interrogation.status not in (Status.ENDED, Status.ABORTED) for i in interviews):
            raise Closed("Verdicts are given once all your interviews of this trial have ended.")
        if TrialVerdict.objects.filter(trial=trial, judge_id=judge.pk).exists():
            raise Closed("You have given your verdicts for this trial already.")
        by_alias = {alias: candidate for candidate, alias in trial.aliases.items()}
        label = f"J{trial.session.judges.get(user_id=judge.pk).position}"
        try:
            verdicts = {by_alias[a]: v for a, v in _table(verdicts, by_alias, "verdicts").items()}
            ranks = {by_alias[a]: r for a, r in _table(ranks, by_alias, "ranks").items()}
            rules.trial_check({label: verdicts}, {label: ranks}, trial=trial.number, candidates=list(trial.aliases))
        except rules.RulesError as error:
            raise InvalidInput(_aliased(str(error), trial.aliases)) from None
        now = timezone.now()
        results_version_bump()  # the results pages count these verdicts once the transaction commits
        return TrialVerdict.objects.bulk_create(
            [
                TrialVerdict(
                    trial=trial, judge=judge, candidate=c, verdict=verdicts[c], rank=ranks[c], submitted_at=now
                )
                for c in trial.aliases
            ]
        )


def _table(value, by_alias: dict, what: str) -> dict:
    if not isinstance(value, dict):
        raise InvalidInput(f"{what} must map each candidate to a value.")
    unknown = [a for a in value if a not in by_alias]
    if unknown:
        raise InvalidInput(f"{what}: no candidate {', '.join(map(str, unknown))[:100]} in this trial.")
    return value


def _aliased(message: str, aliases: dict) -> str:
    """A validation message speaks of candidates as the judge knows them (never "computer" or "F2")."""
    for candidate, alias in sorted(aliases.items(), key=lambda kv: -len(kv[0])):
        message = message.replace(candidate, f"Candidate {alias}")
    return message
