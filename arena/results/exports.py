"""The results pages' downloads: the same figures as JSON documents and CSV tables (one table per kind of
row).  Names come from entrants and sources: the CSV tables are written by core.csvsafe, which prefixes
with an apostrophe a cell that a spreadsheet would run as a formula."""

from __future__ import annotations

from arena.results.sources import ResultsQuery
from core.csvsafe import csv_text

RATE_FIELDS = ["judged_human", "n", "rate", "ci_low", "ci_high", "p_value", "level"]


def _rate(row: dict) -> dict:
    return {
        "witness": row["name"],
        "witness_kind": row["witness_kind"],
        "baseline": row["baseline"],
        **{k: row[k] for k in RATE_FIELDS},
    }


def public_json(data: dict, query: ResultsQuery) -> dict:
    return {
        "filters": query.params(),
        "battles": data["battles"],
        "level": data["level"],
        "replicates": data["replicates"],
        "notes": data["notes"],
        "ratings": data["ratings"],
        "win_fraction": {"names": data["names"], "fraction": data["win_fraction"], "battles": data["battle_count"]},
        "rates": [
            {"format": b["format"], "label": b["label"], "rows": [_rate(r) for r in b["rows"]]} for b in data["rates"]
        ],
    }


def ratings_csv(data: dict) -> str:
    return csv_text(
        ["rank", "name", "rating", "ci_low", "ci_high", "battles"],
        [
            [k, r["name"], r["rating"], r["ci_low"], r["ci_high"], r["battles"]]
            for k, r in enumerate(data["ratings"], start=1)
        ],
    )


def matrix_csv(data: dict) -> str:
    """The win-fraction matrix, one row per ordered pair that met: the row player's share of the points."""
    names = data["names"]
    return csv_text(
        ["player", "opponent", "battles", "win_fraction"],
        [
            [names[i], names[j], data["battle_count"][i][j], data["win_fraction"][i][j]]
            for i in range(len(names))
            for j in range(len(names))
            if data["battle_count"][i][j]
        ],
    )


def rates_csv(blocks: list[dict]) -> str:
    return csv_text(
        ["format", "witness", "witness_kind", "baseline", *RATE_FIELDS],
        [[b["format"], *_rate(r).values()] for b in blocks for r in b["rows"]],
    )


def entry_json(data: dict, query: ResultsQuery) -> dict:
    return {
        "filters": query.params(),
        "entry": data["entry"],
        "rating": data["rating"],
        "formats": [
            {"format": f["format"], "label": f["label"], "entry": _rate(f["entry"]), "human": _rate(f["human"])}
            for f in data["formats"]
        ],
    }


def entry_csv(data: dict) -> str:
    return rates_csv([{"format": f["format"], "rows": [f["entry"], f["human"]]} for f in data["formats"]])


JUDGE_FIELDS = [
    "judge",
    "correct",
    "n",
    "rate",
    "ci_low",
    "ci_high",
    "p_value",
    "battles",
    "e_value",
    "outlier",
    "flagged_at",
]


def judges_json(rows: list[dict], query: ResultsQuery) -> dict:
    return {"filters": query.params(), "judges": [{k: r[k] for k in JUDGE_FIELDS} for r in rows]}


def judges_csv(rows: list[dict]) -> str:
    return csv_text(JUDGE_FIELDS, [[r[k] for k in JUDGE_FIELDS] for r in rows])
