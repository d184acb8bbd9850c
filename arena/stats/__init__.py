"""Results people can trust: rates with confidence intervals, Bradley–Terry ratings, outlier judges.

NumPy and SciPy only, no Django (an import-linter contract checks it), so a researcher can use it on
exported data and the platform's selectors, commands and benchmarks share one implementation.
Modules: `rates` (proportions, Brier scores), `battles` (records → arrays → cells), `solver` (the
likelihood's Newton and chord iterations, the prior rule), `bradley_terry` (fits, bootstrap, ratings),
`judges` (outlier test); everything public is imported here.

Proportions (the pass rate of Jones & Bergen: how often a witness was judged human)
    k successes in n trials, p̂ = k/n, z = Φ⁻¹((1 + level)/2) (1.96 for 95 %).
    * `wilson_interval`: (p̂ + z²/2n ± z·√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n).  Never leaves [0, 1] and
      stays informative at k = 0 or k = n, which is why it is the default.
    * `bootstrap_interval`: the percentile bootstrap: resampling n outcomes with replacement makes
      k* ~ Binomial(n, p̂); the interval is the (1−level)/2 and (1+level)/2 quantiles of k*/n (as Jones &
      Bergen report).  It collapses to a point at k = 0 or k = n: use Wilson there.
    * `binomial_test`: the exact two-sided test of p = p0 (default 50 %, "indistinguishable from chance"):
      P = Σ P(X = i) over every i with P(X = i) ≤ P(X = k), X ~ Binomial(n, p0) (SciPy's `binomtest`).
    * `proportion_estimate`: all three in one `Proportion`.  n = 0 gives rate None, the interval [0, 1]
      and p-value None: nothing is known, and nothing crashes.

Bradley–Terry ratings (Chatbot Arena's fit, FastChat `elo_analysis`)
    Player i has a strength πᵢ = exp(θᵢ); P(i beats j) = πᵢ/(πᵢ + πⱼ) = σ(θᵢ − θⱼ), σ(x) = 1/(1 + e⁻ˣ).
    A battle's score for its first player is 1 (win), ½ (tie: half a win each) or 0.  With wᵢⱼ the score of
    i against j and nᵢⱼ their battles, the log-likelihood is
        ℓ(θ) = Σ_{i<j} [wᵢⱼ log σ(θᵢ − θⱼ) + (nᵢⱼ − wᵢⱼ) log σ(θⱼ − θᵢ)]  −  the prior term below,
    maximised by Newton's method (`bradley_terry_fit`).  The maximum exists and is unique up to a common
    shift exactly when the battles are *strongly connected* (Ford 1957, Zermelo 1929): for every split
    of the players into two groups, each group scored (won or tied) against the other.  A witness that
    always wins (or never scores) breaks it: its maximum-likelihood strength is infinite.
    *Prior*: then, and only then (by default), every player is given `DEFAULT_PRIOR` = 1 virtual battle,
    a tie, against a reference player of strength 1 (θ = 0):
        ℓ_τ(θ) = ℓ(θ) + (τ/2) Σᵢ [log σ(θᵢ) + log σ(−θᵢ)],
    a proper, concave log-prior that shrinks log-strengths towards their mean by about as much as one
    drawn game would, and leaves well-measured players nearly untouched.  The result says so (`notes`).
    Pass `prior=` to force a value for every fit (0: plain maximum likelihood, refused when it does not
    exist).
    Ratings: rating = 1000 + 400·log₁₀ πᵢ = 1000 + 400·θᵢ/ln 10 (the Elo scale: 400 points = 10:1 odds),
    centred so that the players' mean rating is 1000, or shifted so that one anchor player has a given
    rating (`--anchor NAME=RATING`).
    Confidence intervals (`bradley_terry_bootstrap`, `ratings_compute`): resample the N battles with
    replacement R times (a multinomial draw of N over the distinct (pair, outcome) cells, which is the same
    thing), refit each replicate, and take the (1−level)/2 and (1+level)/2 quantiles of each player's
    replicate ratings, each replicate centred (or anchored) like the point estimate.  The replicates are
    fitted together, vectorised on an (R × players) array warm-started from the point estimate: chord
    iterations θ ← θ + A(θ̂)⁻¹∇ℓ_τ(θ) with the point fit's Hessian A(θ̂) (one matrix product per iteration
    for all replicates), and batched damped Newton (a Cholesky factorisation per replicate) for any
    replicate the chord iteration does not settle.  Converged to |Δθ| < 1e-10.

Forecasts (`brier_score`: Turing Trade's markets as forecasters of "the target is human")
    B = (1/n) Σ (fₜ − oₜ)² with a percentile bootstrap interval, and the skill 1 − B/B_ref against a
    reference forecast (the base rate, or each game's prior P(human)).

Calibration (`calibration_bins`): forecasts in equal-width bins, each bin's observed frequency with its Wilson
    interval (judges' and crowds' reliability diagrams on the conversation-market results page).

Vote caps (`votes_cap`, Chatbot Arena's `limit_user_votes`): at most `cap` votes per judge and period.

Outlier judges (`judge_outliers`, after FastChat's `outlier_detect`)
    For each judge, the consensus is the Bradley–Terry fit on every *other* judge's battles (all judges'
    leave-one-out fits are solved together, like bootstrap replicates).  Vote t of the judge had consensus
    probability qₜ of the outcome the judge chose.  Against the alternative "the judge votes against the
    consensus with probability λ", the likelihood ratio of vote t is
        Eₜ = 1 − λ + λ(1 − qₜ)/qₜ = 1 + λ(1 − 2qₜ)/qₜ        (a tie: Eₜ = 1),
    whose expectation under the consensus is 1, so Mₜ = E₁·…·Eₜ is a test martingale and, by Ville's
    inequality, P(supₜ Mₜ ≥ 1/α) ≤ α: a judge is flagged as soon as Mₜ ≥ 1/α, a valid sequential test
    however often it is looked at (defaults λ = ½, α = 0.05 → threshold 20).
"""

from arena.stats.battles import (
    WINNERS,
    BattleCells,
    BattleError,
    Battles,
    battle_cells,
    battles_from_records,
    votes_cap,
)
from arena.stats.bradley_terry import (
    CENTRE,
    SCALE,
    Fit,
    Rating,
    RatingTable,
    bradley_terry_bootstrap,
    bradley_terry_fit,
    ratings_compute,
    theta_to_rating,
)
from arena.stats.calibration import CalibrationBin, calibration_bins
from arena.stats.judges import JudgeTest, judge_outliers
from arena.stats.rates import (
    BrierScore,
    Proportion,
    binomial_test,
    bootstrap_interval,
    brier_score,
    proportion_estimate,
    wilson_interval,
)
from arena.stats.solver import DEFAULT_PRIOR

__all__ = [
    "BattleCells",
    "BattleError",
    "Battles",
    "BrierScore",
    "CENTRE",
    "CalibrationBin",
    "calibration_bins",
    "DEFAULT_PRIOR",
    "Fit",
    "JudgeTest",
    "Proportion",
    "Rating",
    "RatingTable",
    "SCALE",
    "WINNERS",
    "battle_cells",
    "battles_from_records",
    "binomial_test",
    "bootstrap_interval",
    "bradley_terry_bootstrap",
    "bradley_terry_fit",
    "brier_score",
    "judge_outliers",
    "proportion_estimate",
    "ratings_compute",
    "theta_to_rating",
    "votes_cap",
    "wilson_interval",
]
