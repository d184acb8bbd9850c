"""arena.stats: the rates, intervals, tests and ratings a results page shows, checked against references
(closed forms, SciPy's optimiser on the same likelihood, simulations whose truth is known)."""

import math
from unittest import mock

import numpy as np
import pytest
from scipy.optimize import minimize
from scipy.special import log_expit

from arena import stats
from arena.stats import solver

LN10 = math.log(10.0)


def simulate(ratings, battles, rng, tie_rate=0.0):
    """Battles between random pairs of players with these true ratings (Bradley–Terry, Elo scale)."""
    names = [f"p{k}" for k in range(len(ratings))]
    theta = np.asarray(ratings, dtype=float) * LN10 / 400.0
    a = rng.integers(0, len(names), battles)
    b = (a + rng.integers(1, len(names), battles)) % len(names)
    p_a = 1.0 / (1.0 + np.exp(theta[b] - theta[a]))
    u = rng.random(battles)
    score = np.where(u < tie_rate, 0.5, np.where(rng.random(battles) < p_a, 1.0, 0.0))
    return stats.Battles(names=names, a=a, b=b, score=score)


def scipy_fit(battles, prior=0.0):
    """The reference: SciPy's L-BFGS-B on the same (penalised) log-likelihood, per battle, tight tolerances."""
    a, b, s, p = battles.a, battles.b, battles.score, battles.players

    def loss(theta):
        d = theta[a] - theta[b]
        value = -(s * log_expit(d) + (1 - s) * log_expit(-d)).sum()
        value -= 0.5 * prior * (log_expit(theta) + log_expit(-theta)).sum()
        resid = s - 1.0 / (1.0 + np.exp(-d))
        grad = -(np.bincount(a, resid, p) - np.bincount(b, resid, p))
        grad -= 0.5 * prior * (1.0 - 2.0 / (1.0 + np.exp(-theta)))
        return value / len(a), grad / len(a)

    result = minimize(
        loss,
        np.zeros(p),
        jac=True,
        method="L-BFGS-B",
        options={"gtol": 1e-13, "ftol": 1e-16, "maxiter": 10_000, "maxcor": 50},
    )
    return result.x - result.x.mean()


# --- proportions ---------------------------------------------------------------------------------------


def test_wilson_interval_matches_published_values_and_stays_in_0_1():
    # Newcombe (1998), table I: 0/10 → [0, 0.2775]; 5/10 → [0.2366, 0.7634]; 81/263 → [0.2553, 0.3662]
    assert stats.wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert stats.wilson_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert stats.wilson_interval(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)
    assert stats.wilson_interval(10, 10)[1] == 1.0
    assert stats.wilson_interval(0, 0) == (0.0, 1.0)


def test_exact_binomial_test_against_half():
    assert stats.binomial_test(7, 10) == pytest.approx(0.34375)
    assert stats.binomial_test(10, 10) == pytest.approx(2 / 1024)
    assert stats.binomial_test(5, 10) == pytest.approx(1.0)
    assert stats.binomial_test(0, 0) is None


def test_bootstrap_interval_of_a_rate_agrees_with_wilson_on_plenty_of_data_and_is_seeded():
    low, high = stats.bootstrap_interval(540, 1000, seed=1)
    assert (low, high) == pytest.approx(stats.wilson_interval(540, 1000), abs=0.006)
    assert stats.bootstrap_interval(540, 1000, seed=1) == (low, high)


def test_proportion_estimate_reports_rate_interval_and_test_and_survives_no_data():
    estimate = stats.proportion_estimate(54, 100)  # Jones & Bergen's GPT-4: 54 % judged human
    assert estimate.rate == 0.54 and estimate.ci_low < 0.5 < estimate.ci_high and estimate.p_value > 0.05
    empty = stats.proportion_estimate(0, 0).as_dict()
    assert empty["rate"] is None and empty["p_value"] is None and (empty["ci_low"], empty["ci_high"]) == (0.0, 1.0)
    with pytest.raises(ValueError):
        stats.proportion_estimate(3, 2)


# --- Bradley–Terry ---------------------------------------------------------------------------------------


def test_two_players_match_the_closed_form():
    # w wins, l losses, t ties: θa − θb = ln((w + t/2) / (l + t/2)); here ln(8/4), i.e. 400·log10 2 points apart
    records = (
        [{"a": "x", "b": "y", "winner": "a"}] * 7
        + [{"a": "y", "b": "x", "winner": "a"}] * 3
        + [{"a": "x", "b": "y", "winner": "tie"}] * 2
    )
    fit = stats.bradley_terry_fit(stats.battles_from_records(records))
    assert fit.prior == 0 and fit.notes == []
    assert fit.theta[0] - fit.theta[1] == pytest.approx(math.log(2.0), abs=1e-10)
    table = stats.ratings_compute(stats.battles_from_records(records), replicates=0)
    by_name = {r.name: r for r in table.ratings}
    assert by_name["x"].rating == pytest.approx(1000 + 200 * math.log10(2), abs=1e-8)
    assert by_name["y"].rating == pytest.approx(1000 - 200 * math.log10(2), abs=1e-8)
    assert by_name["x"].battles == by_name["y"].battles == 12


def test_fit_agrees_with_scipy_optimiser_to_1e_6_in_log_strength():
    rng = np.random.default_rng(7)
    battles = simulate([0, 150, -80, 300, 40, -200], 3000, rng, tie_rate=0.1)
    fit = stats.bradley_terry_fit(battles)
    assert fit.prior == 0
    assert np.max(np.abs(fit.theta - scipy_fit(battles))) < 1e-6
    # and with the prior, on the penalised likelihood
    regularised = stats.bradley_terry_fit(battles, prior=2.0)
    assert np.max(np.abs(regularised.theta - scipy_fit(battles, prior=2.0))) < 1e-6


def test_ratings_recover_known_strengths_from_simulated_battles():
    truth = np.array([-300.0, -120.0, 0.0, 50.0, 200.0, 400.0])
    battles = simulate(truth, 30_000, np.random.default_rng(3))  # (random ties would pull ratings together)
    table = stats.ratings_compute(battles, replicates=200, seed=3)
    got = {r.name: r for r in table.ratings}
    expected = 1000 + truth - truth.mean()
    for k, value in enumerate(expected):
        row = got[f"p{k}"]
        # ~5,000 battles each: the standard error is ~10 points, so 40 points is 4 of them
        assert row.rating == pytest.approx(value, abs=40)
        assert row.ci_low < row.rating < row.ci_high and row.ci_high - row.ci_low < 80
    assert [r.name for r in table.ratings] == [f"p{k}" for k in range(5, -1, -1)]  # best first
    assert np.mean([r.rating for r in table.ratings]) == pytest.approx(1000.0)


@pytest.mark.slow
def test_bootstrap_intervals_cover_the_truth_about_95_percent_of_the_time():
    # 120 simulated leaderboards of 4 players, 600 battles each, 200 replicates: 480 (player, run) checks.
    # If coverage were 0.95 the count would have a binomial SD of ~1 % (less independent in truth, since
    # the 4 players of one run share it): the band 0.90–0.985 is about ±4 SD around 0.95, wide enough not to
    # flake and narrow enough to catch intervals that are too short (e.g. no resampling) or far too long.
    truth = np.array([-150.0, 0.0, 60.0, 200.0])
    centred = 1000 + truth - truth.mean()
    rng = np.random.default_rng(2026)
    covered = total = 0
    for run in range(120):
        battles = simulate(truth, 600, rng)
        table = stats.ratings_compute(battles, replicates=200, seed=run)
        for row in table.ratings:
            value = centred[int(row.name[1:])]
            covered += row.ci_low <= value <= row.ci_high
            total += 1
    assert 0.90 <= covered / total <= 0.985, covered / total


def test_anchor_fixes_one_players_rating_and_keeps_the_differences():
    battles = simulate([0, 100, 250], 2000, np.random.default_rng(5))
    free = {r.name: r.rating for r in stats.ratings_compute(battles, replicates=0).ratings}
    anchored = stats.ratings_compute(battles, replicates=100, seed=1, anchor=("p0", 1200.0))
    rows = {r.name: r for r in anchored.ratings}
    assert rows["p0"].rating == pytest.approx(1200.0) and rows["p0"].ci_low == pytest.approx(1200.0)
    assert rows["p2"].rating - rows["p1"].rating == pytest.approx(free["p2"] - free["p1"])
    with pytest.raises(stats.BattleError, match="anchor 'nobody'"):
        stats.ratings_compute(battles, replicates=0, anchor=("nobody", 1000.0))


def test_bootstrap_is_reproducible_with_a_seed_and_independent_of_chunking():
    battles = simulate([0, 100, 250, -50], 1500, np.random.default_rng(9), tie_rate=0.1)
    first = stats.bradley_terry_bootstrap(battles, replicates=64, seed=11)
    again = stats.bradley_terry_bootstrap(battles, replicates=64, seed=11, chunk=5)
    assert np.allclose(first, again, atol=1e-9)
    # each replicate is the maximum-likelihood fit of its resample: spot-check one against SciPy
    rng = np.random.default_rng(11)
    cells = stats.battle_cells(battles)
    counts = rng.multinomial(len(battles), cells.cell_count / len(battles), size=1)[0]
    a = np.repeat(cells.pair_i[cells.cell_pair], counts)
    b = np.repeat(cells.pair_j[cells.cell_pair], counts)
    score = np.repeat(cells.cell_score, counts)
    replicate = stats.Battles(names=battles.names, a=a, b=b, score=score)
    assert np.max(np.abs(first[0] - scipy_fit(replicate))) < 1e-6


# --- degenerate data --------------------------------------------------------------------------------------


def test_a_witness_that_always_wins_is_named_and_rated_with_the_documented_prior():
    records = (
        [{"a": "GPT", "b": "human", "winner": "a"}] * 10
        + [{"a": "ELIZA", "b": "human", "winner": "b"}] * 6
        + [{"a": "ELIZA", "b": "human", "winner": "a"}] * 4
    )
    battles = stats.battles_from_records(records)
    table = stats.ratings_compute(battles, replicates=100, seed=1)
    assert table.prior == stats.DEFAULT_PRIOR
    assert any("GPT won every battle" in note for note in table.notes)
    assert any("prior" in note for note in table.notes)
    rows = {r.name: r for r in table.ratings}
    assert all(math.isfinite(r.rating) and math.isfinite(r.ci_low) and math.isfinite(r.ci_high) for r in table.ratings)
    assert rows["GPT"].rating > rows["human"].rating > rows["ELIZA"].rating
    # the regularised fit is the maximum of the penalised likelihood
    fit = stats.bradley_terry_fit(battles)
    assert np.max(np.abs(fit.theta - scipy_fit(battles, prior=stats.DEFAULT_PRIOR))) < 1e-6
    with pytest.raises(stats.BattleError, match="GPT won every battle"):
        stats.bradley_terry_fit(battles, prior=0)


def test_one_battle_and_no_battles_give_clear_results_not_crashes():
    one = stats.ratings_compute(
        stats.battles_from_records([{"a": "x", "b": "y", "winner": "a"}]), replicates=50, seed=0
    )
    x, y = one.ratings
    assert x.name == "x" and x.rating > 1000 > y.rating and x.rating + y.rating == pytest.approx(2000)
    assert x.battles == y.battles == 1 and any("won every battle" in n for n in one.notes)
    none = stats.ratings_compute(stats.battles_from_records([]), replicates=1000, seed=0)
    assert none.ratings == [] and none.notes == ["no battles: nothing to rate"]
    assert stats.judge_outliers(stats.battles_from_records([]), []) == []


def test_players_never_compared_both_ways_are_reported():
    records = [
        {"a": "a1", "b": "a2", "winner": "a"},
        {"a": "a1", "b": "a2", "winner": "b"},
        {"a": "b1", "b": "b2", "winner": "a"},
        {"a": "b1", "b": "b2", "winner": "b"},
    ]
    table = stats.ratings_compute(stats.battles_from_records(records), replicates=20, seed=0)
    assert table.prior == stats.DEFAULT_PRIOR and "never compared" in table.notes[0]
    assert {round(r.rating, 6) for r in table.ratings} == {1000.0}


@pytest.mark.parametrize(
    "record, message",
    [
        ({"a": "x", "b": "x", "winner": "a"}, "cannot battle itself"),
        ({"a": "x", "b": "y", "winner": "draw"}, "'winner' must be"),
        ({"a": "x", "winner": "a"}, "missing 'b'"),
        ({"a": "", "b": "y", "winner": "a"}, "'a' must be a non-empty name"),
        (["x", "y", "a"], "must be an object"),
    ],
)
def test_bad_battle_records_are_refused_with_their_position(record, message):
    good = {"a": "x", "b": "y", "winner": "tie"}
    with pytest.raises(stats.BattleError, match=message) as refused:
        stats.battles_from_records([good, record])
    assert refused.value.index == 1


# --- outlier judges ----------------------------------------------------------------------------------------


def test_a_judge_who_votes_against_the_consensus_is_flagged_and_honest_judges_are_not():
    rng = np.random.default_rng(4)
    truth = np.array([-250.0, -100.0, 0.0, 150.0, 300.0])
    battles = simulate(truth, 2200, rng)
    judges = list(rng.integers(0, 10, len(battles)))  # ten honest judges...
    contrarian = np.arange(len(battles)) % 11 == 0  # ...and one who picks the consensus's loser
    score = battles.score.copy()
    theta = truth * LN10 / 400
    favourite = theta[battles.a] > theta[battles.b]
    score[contrarian] = np.where(favourite[contrarian], 0.0, 1.0)
    for k in np.flatnonzero(contrarian):
        judges[k] = "contrarian"
    battles = stats.Battles(names=battles.names, a=battles.a, b=battles.b, score=score)
    tests = {t.judge: t for t in stats.judge_outliers(battles, judges, alpha=0.05)}
    assert tests["contrarian"].flagged and tests["contrarian"].agreement < 0.2
    assert tests["contrarian"].flagged_at < tests["contrarian"].votes  # found before the end: sequential
    honest_flagged = [j for j, t in tests.items() if j != "contrarian" and t.flagged]
    assert len(honest_flagged) <= 1  # each is a false alarm with probability ≤ 5 % (Ville)


def test_a_replicate_the_quick_iteration_cannot_settle_is_still_fitted_exactly():
    # the chord iteration uses the point fit's Hessian for every replicate; given a poor one (here 8×
    # too small, so its steps overshoot) a replicate must still end at its own maximum, through Newton
    battles = simulate([0, 100, 250, -50], 800, np.random.default_rng(13))
    cells = stats.battle_cells(battles)
    n, w = cells.totals(cells.cell_count[None, :])
    fit = stats.bradley_terry_fit(battles)
    model = solver._Model(cells)
    poor = 8.0 * np.linalg.inv(model.hessian(fit.theta[None, :], n, np.zeros(1))[0])
    with mock.patch("arena.stats.solver._newton", wraps=solver._newton) as newton:
        theta = solver._chord(cells, n, w, np.zeros(1), np.zeros((1, battles.players)), poor)
    assert newton.call_count == 1
    assert np.max(np.abs(theta[0] - theta[0].mean() - scipy_fit(battles))) < 1e-6


# --- forecasts ---------------------------------------------------------------------------------------------


def test_brier_score_with_interval_and_skill_against_a_reference():
    score = stats.brier_score([0.9, 0.2, 0.7, 0.4], [1, 0, 1, 1], reference=0.5, seed=1)
    assert score.score == pytest.approx((0.01 + 0.04 + 0.09 + 0.36) / 4)
    assert score.reference == pytest.approx(0.25) and score.skill == pytest.approx(1 - 0.125 / 0.25)
    assert score.ci_low <= score.score <= score.ci_high
    climatology = stats.brier_score([0.75] * 4, [1, 0, 1, 1])  # forecasting the base rate: no skill
    assert climatology.skill == pytest.approx(0.0)
    assert stats.brier_score([], []).as_dict()["brier"] is None
    with pytest.raises(ValueError):
        stats.brier_score([1.2], [1])


def test_vote_cap_keeps_each_judges_first_votes_per_day_and_drops_unused_players():
    keep = stats.votes_cap(["j", "j", "j", "k", "j"], ["mon", "mon", "mon", "mon", "tue"], cap=2)
    assert keep.tolist() == [True, True, False, True, True]
    battles = stats.battles_from_records(
        [{"a": "x", "b": "y", "winner": "a"}, {"a": "y", "b": "z", "winner": "b"}, {"a": "x", "b": "y", "winner": "b"}]
    )
    kept = battles.subset([True, False, True])
    assert kept.names == ["x", "y"] and kept.games().tolist() == [2, 2] and kept.points().tolist() == [1.0, 1.0]
