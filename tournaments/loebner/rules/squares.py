"""Latin squares and round plans for N judges, N entries and N confederates (pure, no Django).

A *plan* is a list of (round, judge, entry, confederate) index tuples, all 0-based. Two constructions:

* an orthogonal array OA(N, 4) (round, judge, entry, confederate: every two columns meet each pair of
  values once) exists for every N except 2 and 6; we build it for odd N (cyclic), N = 4, 8, 16
  (arithmetic in GF(2^k)), and products of those (12 = 3 x 4, 20, 24, 28). Then N rounds of N
  simultaneous meetings: nobody sits out.
* otherwise (N = 2, 6, 10, 14, ...: N = 2 mod 4) the cyclic Latin square, whose N x N meetings are
  packed greedily into rounds in which nobody is in two places at once; some people sit out.

``plan_compact`` keeps everyone busy for every N: the orthogonal array where there is one, otherwise N
rounds in which judge j meets entry j + r and confederate j - r (mod N). Each judge then meets each entry
and each confederate once, but each entry meets half the confederates twice (entry - confederate = 2r).
"""

from __future__ import annotations

MAX_N = 30

# Irreducible polynomials for GF(2^k): x^2+x+1, x^3+x+1, x^4+x+1.
_POLY = {2: 0b111, 3: 0b1011, 4: 0b10011}


def _gf_mul(a: int, b: int, k: int) -> int:
    product = 0
    while b:
        if b & 1:
            product ^= a
        b >>= 1
        a <<= 1
        if a >> k:
            a ^= _POLY[k]
    return product


def _oa_odd(n: int) -> list[tuple[int, int, int, int]]:
    # entry = r - i, confederate = r - 2i (2 is invertible mod odd n); the square judge x entry ->
    # confederate is then the cyclic one of the 2009 rules: confederate = entry - judge.
    return [(r, i, (r - i) % n, (r - 2 * i) % n) for r in range(n) for i in range(n)]


def _oa_gf2(k: int) -> list[tuple[int, int, int, int]]:
    # entry = r + i, confederate = x*r + i in GF(2^k); x and 1 + x are non-zero, so every pair of
    # columns is a bijection. For k = 2 the judge x round -> entry table is the 2012 contest's.
    n = 1 << k
    return [(r, i, r ^ i, _gf_mul(2, r, k) ^ i) for r in range(n) for i in range(n)]


def _product(a: list[tuple], b: list[tuple], nb: int) -> list[tuple[int, int, int, int]]:
    return [tuple(x * nb + y for x, y in zip(ra, rb)) for ra in a for rb in b]


def orthogonal_array(n: int) -> list[tuple[int, int, int, int]] | None:
    """OA(n, 4) rows (round, judge, entry, confederate), sorted by round then judge; None when this
    module has no construction for n (n = 2 mod 4)."""
    twos = (n & -n).bit_length() - 1  # n = 2^twos * odd
    odd = n >> twos
    if twos == 1:
        return None
    rows = _oa_odd(odd) if odd > 1 else None
    if twos:
        rows2 = _oa_gf2(twos)
        rows = rows2 if rows is None else _product(rows, rows2, 1 << twos)
    return sorted(rows)


def cyclic_square(n: int) -> list[list[int]]:
    """square[judge][entry] = confederate = (entry - judge) mod n, as the 2009 rules' matrix."""
    return [[(e - j) % n for e in range(n)] for j in range(n)]


def greedy_rounds(cells: list[tuple[int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Pack (judge, entry, confederate) meetings into rounds, each person and entry at most once a
    round; diagonal order (entry + judge) first, which fills rounds well on the cyclic square."""
    n = max(max(c) for c in cells) + 1
    waiting = sorted(cells, key=lambda c: ((c[0] + c[1]) % n, c[0]))
    plan, round_no = [], 0
    while waiting:
        busy: set[tuple[str, int]] = set()
        left = []
        for judge, entry, conf in waiting:
            keys = {("j", judge), ("e", entry), ("c", conf)}
            if busy & keys:
                left.append((judge, entry, conf))
            else:
                busy |= keys
                plan.append((round_no, judge, entry, conf))
        waiting, round_no = left, round_no + 1
    return plan


def plan_build(n: int) -> list[tuple[int, int, int, int]]:
    """The round plan for n judges, entries and confederates (deterministic)."""
    if not 2 <= n <= MAX_N:
        raise ValueError(f"entries must be between 2 and {MAX_N}, not {n}")
    rows = orthogonal_array(n)
    if rows is not None:
        return rows
    square = cyclic_square(n)
    return greedy_rounds([(j, e, square[j][e]) for j in range(n) for e in range(n)])


def plan_compact(n: int) -> list[tuple[int, int, int, int]]:
    """n rounds of n meetings, nobody idle (deterministic): ``plan_build``'s orthogonal array where there
    is one; for n = 2 mod 4, judge j meets entry j + r and confederate j - r in round r (mod n)."""
    if not 2 <= n <= MAX_N:
        raise ValueError(f"entries must be between 2 and {MAX_N}, not {n}")
    rows = orthogonal_array(n)
    if rows is not None:
        return rows
    return [(r, j, (j + r) % n, (j - r) % n) for r in range(n) for j in range(n)]
