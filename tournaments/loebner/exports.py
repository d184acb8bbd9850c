"""A contest's downloads from its results page: the results as JSON and CSV, and its published transcripts
as JSON (the JComm logs of the same transcripts are lpp's, lpp.export).

Who may have them: anyone once the contest's results are published (status "done"), only organisers
before. People are named only by the contest's labels (judges J1…, confederates C1…, entries E1…), as
the results page and the JComm logs name them; entries also by their names, as the results page does.
A CSV cell that a spreadsheet would run as a formula is prefixed with an apostrophe
(core.csvsafe.csv_text)."""

from arena import roles
from arena.selectors.interrogations import transcript_export
from core.csvsafe import csv_text
from core.errors import NotAllowed
from tournaments.loebner.models import Contest
from tournaments.loebner.selectors import contest_meetings, contest_results, results_published

ENTRY_FIELDS = ["rank", "label", "name", "judged_human", "n", "rate", "ci_low", "ci_high", "mean_rank", "points"]
JUDGMENT_FIELDS = ["round", "entry", "confederate", "left", "human", "rank"]


def downloads_allowed(*, contest: Contest, user) -> bool:
    return roles.organises(user) or results_published(contest=contest)


def contest_downloadable(*, contest_id: int, user) -> Contest:
    """The contest whose downloads ``user`` asks for. Raises Contest.DoesNotExist (no such contest, or a
    draft) and NotAllowed (its results are not published and ``user`` is no organiser)."""
    contest = Contest.objects.exclude(status=Contest.Status.DRAFT).get(pk=contest_id)
    if not downloads_allowed(contest=contest, user=user):
        raise NotAllowed("This contest's results are not published yet: only its organisers may download them.")
    return contest


def _entries(results: dict) -> list[dict]:
    """The entries table of the results page, best first (by rank, then label; unranked last)."""
    rows = [{k: row[k] for k in ENTRY_FIELDS} for row in results["entries"]]
    return sorted(rows, key=lambda r: (r["rank"] is None, r["rank"] or 0, len(r["label"]), r["label"]))


def results_json(*, contest: Contest) -> dict:
    """The results page as data: the winner, the silver rule, each entry's rank and totals, and each
    judge's meetings (the left side only once judged, as the page keeps unjudged meetings blind)."""
    results = contest_results(contest=contest)
    score = results["score"] or {}
    return {
        "contest": contest.name,
        "format": contest.format_name,
        "status": contest.status,
        "published": results_published(contest=contest),
        "winner": results["winner_label"],
        "winner_name": results["winner"],
        "winner_by_organiser": results["by_organiser"],
        "tied": [t["label"] for t in results["tied"]],
        "tie_break": score.get("tie_break"),
        "silver": score.get("silver"),
        "not_scored": results["problem"] or None,
        "entries": _entries(results),
        "judges": [
            {
                "label": judge["label"],
                "meetings": [
                    {
                        **{k: row[k] for k in JUDGMENT_FIELDS},
                        "left": row["left"] if row["human"] is not None else None,
                    }
                    for row in judge["rows"]
                ],
            }
            for judge in results["judges"]
        ],
    }


def results_csv(*, contest: Contest) -> str:
    """The entries table, one row per entry, best first."""
    rows = _entries(contest_results(contest=contest))
    return csv_text(ENTRY_FIELDS, [[row[k] for k in ENTRY_FIELDS] for row in rows])


def transcripts_json(*, contest: Contest) -> dict:
    """Every published transcript of the contest (the arena's JSON of each: hash chains and signed seals),
    its people named by the contest's labels: the judge J…, the human witness C…, the machine witness E…."""
    transcripts = []
    for meeting in contest_meetings(contest=contest):
        interrogation = meeting.interrogation
        if interrogation is None or not interrogation.is_published:
            continue
        transcripts.append(
            {
                **transcript_export(interrogation=interrogation),  # its people named by label (meeting_pseudonyms)
                "round": meeting.round.number,
                "entry": meeting.entry.label,
                "confederate": meeting.confederate.label,
            }
        )
    return {"contest": contest.name, "format": contest.format_name, "transcripts": transcripts}
