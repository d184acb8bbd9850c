"""The results pages' reads over every registered source: the public leaderboard and pass rates, one entry's
results, the judges' accuracy (organisers only); each computed once per results version and query."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from arena import stats
from arena.models import Entry
from arena.results import compute
from arena.results.cache import results_cached
from arena.results.sources import ResultsQuery, formats_registered, results_collect

RESULTS_REPLICATES = 1000
RESULTS_SEED = 0  # a fixed seed: the intervals do not wobble from one recomputation to the next


def results_battles(
    *, query: ResultsQuery = ResultsQuery(), pool_humans: bool = True, cap_per_judge_day: int | None = None
) -> tuple[stats.Battles, list[str]]:
    """Every registered source's battles that the query admits, oldest first, as arena.stats.Battles, and
    the judge key of each; `cap_per_judge_day` keeps only each judge's first that many battles of each (UTC)
    day (arena.stats.votes_cap, Chatbot Arena's vote cap)."""
    battles = results_collect(query).battles
    if cap_per_judge_day is not None:
        keep = stats.votes_cap([b.judge for b in battles], [b.at.date() for b in battles], cap=cap_per_judge_day)
        battles = [b for b, k in zip(battles, keep) if k]
    return compute.battle_records(battles, pool_humans=pool_humans)


def results_ratings(
    *,
    query: ResultsQuery = ResultsQuery(),
    replicates: int = RESULTS_REPLICATES,
    seed=RESULTS_SEED,
    anchor=None,
    pool_humans: bool = True,
    cap_per_judge_day: int | None = None,
    progress=None,
) -> stats.RatingTable:
    """Bradley–Terry ratings with bootstrap intervals of every witness, every format on one scale."""
    battles, _ = results_battles(query=query, pool_humans=pool_humans, cap_per_judge_day=cap_per_judge_day)
    return stats.ratings_compute(battles, replicates=replicates, seed=seed, anchor=anchor, progress=progress)


def _entry_ids(names) -> dict[str, int]:
    return dict(Entry.objects.filter(display_name__in=list(names)).values_list("display_name", "pk"))


def results_public(*, query: ResultsQuery = ResultsQuery()) -> dict:
    """The public leaderboard (ratings with intervals, battles, win fractions, humans pooled) and every
    witness's pass rate beside the human baseline, per format; cached per results version."""

    def build():
        collected = results_collect(query)
        battles, _ = compute.battle_records(collected.battles)
        board = compute.leaderboard(stats.ratings_compute(battles, replicates=RESULTS_REPLICATES, seed=RESULTS_SEED))
        rates = compute.rates_by_format(collected.outcomes, formats_registered())
        names = {r["name"] for block in rates for r in block["rows"]} | set(board["names"])
        return {**board, "rates": rates, "entries": _entry_ids(names), "outcomes": len(collected.outcomes)}

    return results_cached("public", query.key(), build)


def results_entry(*, entry: Entry, query: ResultsQuery = ResultsQuery()) -> dict:
    """One entry: every format it played, its rate with n and CI beside the human witnesses' own rate in
    that format, and its rating (from the public leaderboard of the same query)."""

    def build():
        collected = results_collect(query)
        return {
            "entry": entry.display_name,
            "formats": compute.entry_rates(collected.outcomes, entry.display_name, formats_registered()),
        }

    data = results_cached(f"entry{entry.pk}", query.key(), build)
    rating = next((r for r in results_public(query=query)["ratings"] if r["name"] == entry.display_name), None)
    return {**data, "rating": rating}


def _judge_names(keys) -> dict[str, str]:
    ids = {int(k.split(":", 1)[1]): k for k in keys if k.startswith("user:") and k[5:].isdigit()}
    users = get_user_model().objects.filter(pk__in=ids).values_list("pk", "username")
    return {ids[pk]: name for pk, name in users}


def results_judges(*, query: ResultsQuery = ResultsQuery()) -> list[dict]:
    """Organisers only: each judge's accuracy with its interval and the outlier test; `judge` is the
    username of a platform judge, or the source's key of any other judge (e.g. "model:<name>")."""

    def build():
        collected = results_collect(query)
        return compute.judge_accuracies(collected.outcomes, collected.battles)

    rows = results_cached("judges", query.key(), build)
    known = _judge_names([r["judge"] for r in rows])
    return [{**r, "judge": known.get(r["judge"], r["judge"])} for r in rows]
