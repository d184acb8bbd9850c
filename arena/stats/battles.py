"""Battles between named players, read from records, and their sufficient statistics (cells)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy import sparse

WINNERS = {"a": 1.0, "b": 0.0, "tie": 0.5}


class BattleError(ValueError):
    """A battle record that cannot be read; `index` is its 0-based position in the input."""

    def __init__(self, message: str, index: int | None = None):
        super().__init__(message)
        self.index = index


@dataclass
class Battles:
    """Battles between named players: a[k] met b[k] (indices into `names`); score[k] is a's score
    (1 win, ½ tie, 0 loss)."""

    names: list[str]
    a: np.ndarray
    b: np.ndarray
    score: np.ndarray

    def __post_init__(self):
        self.a = np.asarray(self.a, dtype=np.int64)
        self.b = np.asarray(self.b, dtype=np.int64)
        self.score = np.asarray(self.score, dtype=np.float64)
        if not (self.a.shape == self.b.shape == self.score.shape) or self.a.ndim != 1:
            raise BattleError("a, b and score must be one-dimensional arrays of one length")
        if len(self.a) and (min(self.a.min(), self.b.min()) < 0 or max(self.a.max(), self.b.max()) >= len(self.names)):
            raise BattleError("a player index is out of range")
        if np.any(self.a == self.b):
            raise BattleError("a player cannot battle itself", index=int(np.argmax(self.a == self.b)))
        if not np.all(np.isin(self.score, (0.0, 0.5, 1.0))):
            raise BattleError("a score must be 1 (win), 0.5 (tie) or 0 (loss)")

    def __len__(self) -> int:
        return len(self.a)

    @property
    def players(self) -> int:
        return len(self.names)

    def subset(self, keep) -> Battles:
        """The battles where `keep` (a boolean mask) is true, with the players none of them involves dropped."""
        keep = np.asarray(keep, dtype=bool)
        a, b = self.a[keep], self.b[keep]
        used = np.unique(np.concatenate([a, b]))
        index = np.full(self.players, -1, dtype=np.int64)
        index[used] = np.arange(used.size)
        return Battles(names=[self.names[k] for k in used], a=index[a], b=index[b], score=self.score[keep])

    def games(self) -> np.ndarray:
        """Battles played by each player."""
        return np.bincount(self.a, minlength=self.players) + np.bincount(self.b, minlength=self.players)

    def points(self) -> np.ndarray:
        """Score of each player (wins + ½ ties)."""
        return np.bincount(self.a, weights=self.score, minlength=self.players) + np.bincount(
            self.b, weights=1.0 - self.score, minlength=self.players
        )


def battles_from_records(records: Iterable[Mapping]) -> Battles:
    """Battles from records {"a": name, "b": name, "winner": "a" | "b" | "tie"}; players are numbered in
    order of first appearance.  A bad record raises BattleError naming its position (`index`)."""
    names: list[str] = []
    index: dict[str, int] = {}
    a, b, score = [], [], []
    for position, record in enumerate(records):
        if not isinstance(record, Mapping):
            raise BattleError('a battle must be an object {"a": name, "b": name, "winner": "a"|"b"|"tie"}', position)
        missing = [key for key in ("a", "b", "winner") if key not in record]
        if missing:
            raise BattleError(f"missing {', '.join(repr(m) for m in missing)}", position)
        first, second, winner = record["a"], record["b"], record["winner"]
        for key, name in (("a", first), ("b", second)):
            if not isinstance(name, str) or not name.strip():
                raise BattleError(f"{key!r} must be a non-empty name", position)
        if first == second:
            raise BattleError(f"a player cannot battle itself ({first!r})", position)
        if winner not in WINNERS:
            raise BattleError(f'\'winner\' must be "a", "b" or "tie", not {winner!r}', position)
        for name in (first, second):
            if name not in index:
                index[name] = len(names)
                names.append(name)
        a.append(index[first])
        b.append(index[second])
        score.append(WINNERS[winner])
    return Battles(
        names=names,
        a=np.array(a, dtype=np.int64),
        b=np.array(b, dtype=np.int64),
        score=np.array(score, dtype=np.float64),
    )


@dataclass
class BattleCells:
    """Battles grouped by unordered pair (i < j) and outcome: the sufficient statistics of the fit."""

    players: int
    pair_i: np.ndarray  # (K,) first player of each pair
    pair_j: np.ndarray  # (K,)
    cell_pair: np.ndarray  # (C,) pair of each (pair, outcome) cell, sorted
    cell_score: np.ndarray  # (C,) score of pair_i in that cell
    cell_count: np.ndarray  # (C,) battles in that cell
    pair_start: np.ndarray  # (K,) first cell of each pair

    def totals(self, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(games, score of pair_i) per pair, for cell counts of shape (R, C)."""
        counts = np.asarray(counts, dtype=np.float64)
        cells = np.arange(self.cell_pair.size)
        shape = (self.cell_pair.size, self.pair_i.size)
        games = sparse.csr_matrix((np.ones(cells.size), (cells, self.cell_pair)), shape=shape)
        points = sparse.csr_matrix((self.cell_score, (cells, self.cell_pair)), shape=shape)
        return np.asarray((games.T @ counts.T).T), np.asarray((points.T @ counts.T).T)


def battle_cells(battles: Battles) -> BattleCells:
    """The battles' sufficient statistics: each unordered pair (i < j) and outcome for i (0, ½, 1) with its
    count, sorted by pair.  Resampling battles is a multinomial draw over these cells."""
    swap = battles.a > battles.b
    i = np.where(swap, battles.b, battles.a)
    j = np.where(swap, battles.a, battles.b)
    s = np.where(swap, 1.0 - battles.score, battles.score)
    p = battles.players
    code = (i * p + j) * 3 + (2 * s).astype(np.int64)  # outcome 0, 1 (tie) or 2
    cells, counts = np.unique(code, return_counts=True)
    pair_code = cells // 3
    pairs, pair_start = np.unique(pair_code, return_index=True)
    return BattleCells(
        players=p,
        pair_i=pairs // p,
        pair_j=pairs % p,
        cell_pair=np.searchsorted(pairs, pair_code),
        cell_score=(cells % 3) / 2.0,
        cell_count=counts,
        pair_start=pair_start,
    )


def votes_cap(voters: Sequence[Hashable], periods: Sequence[Hashable], *, cap: int) -> np.ndarray:
    """Chatbot Arena's vote cap (FastChat `limit_user_votes`): keep at most `cap` votes of each voter in
    each period (e.g. a calendar day), the first ones in the given (time) order, so that no single judge
    outweighs the crowd.  Returns the boolean mask of the votes kept."""
    if cap < 1:
        raise ValueError("cap must be at least 1")
    if len(voters) != len(periods):
        raise ValueError("one period per vote")
    seen: dict = {}
    keep = np.zeros(len(voters), dtype=bool)
    for k, key in enumerate(zip(voters, periods)):
        seen[key] = seen.get(key, 0) + 1
        keep[k] = seen[key] <= cap
    return keep
