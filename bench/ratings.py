"""Bradley–Terry ratings with bootstrap intervals: arena.stats against the way FastChat's `elo_analysis` fits.

    .venv/bin/python -m bench.ratings [--systems 100] [--battles 1000000] [--replicates 1000]
                                      [--baseline-replicates 40] [--seed 1]

No services needed (arena.stats imports no Django).  Simulated battles between --systems players of known
strength (random pairs, up to 10 % ties), then:

* **arena.stats**: the point fit (Newton) and --replicates bootstrap replicates, fitted together (batched
  Newton on an (R × players) array, warm-started from the point fit), as `manage.py ratings` does;
* **baseline, FastChat-style** (`fastchat/serve/monitor/rating_systems.py`: `compute_bt` /
  `compute_bootstrap_bt`): the battles as unique (matchup, outcome) rows with weights, the log-likelihood
  and its gradient in NumPy, SciPy's L-BFGS-B (`gtol` 1e-6, `maxiter` 100 as there) from zero, one refit
  per replicate, on the very same multinomial bootstrap draws.  It runs --baseline-replicates of them and
  is extrapolated per replicate to --replicates (said in the output).  Its matchups are our canonical
  (pair, outcome) cells, at most half as many rows as FastChat's own preprocessing keeps (it does not merge
  a-vs-b with b-vs-a), which only flatters the baseline.

Both give ratings on the same scale (1000 + 400·log10 strength, mean 1000); printed: wall-clock and CPU
seconds of each (the machine is shared: CPU seconds move less with other load), the speed-ups, and max
|Δ rating| between the two point fits and between their replicates (and
against the same L-BFGS run to convergence, gtol 1e-12 and ftol 1e-16: the two fits maximise one
likelihood; FastChat's settings stop L-BFGS-B early, mostly on its default ftol).  Target:
≥ 10× faster for the same ratings.  The LAST line is one JSON object
{"seconds", "cpu_seconds", "baseline_seconds", "baseline_cpu_seconds", "speedup", "speedup_cpu",
 "max_abs_delta_rating", "max_abs_delta_rating_replicates", "max_abs_delta_rating_vs_tight_lbfgs", ...}
("met": the wall-clock speed-up reaches the target).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit, log_expit

from arena import stats
from bench.results import add_options, record_if_asked

TARGET = 10.0


def simulate(
    systems: int, battles: int, rng: np.random.Generator, tie_rate: float = 0.1
) -> tuple[stats.Battles, np.ndarray]:
    truth = rng.normal(0.0, 150.0, systems)  # ratings; ±300 points covers most of a real leaderboard
    theta = truth * math.log(10) / 400
    a = rng.integers(0, systems, battles)
    b = (a + rng.integers(1, systems, battles)) % systems
    # ties as half-wins, drawn so that a's expected score is still the Bradley–Terry p (a tie with
    # probability 2·tie_rate·min(p, 1 − p), a win with p minus half of that): the truth is what the fit estimates
    p = expit(theta[a] - theta[b])
    tie = 2.0 * tie_rate * np.minimum(p, 1.0 - p)
    u = rng.random(battles)
    score = np.where(u < tie, 0.5, np.where(u < tie + p - tie / 2, 1.0, 0.0))
    return stats.Battles(names=[f"system-{k:03d}" for k in range(systems)], a=a, b=b, score=score), truth


def fastchat_loss_and_grad(ratings, matchups, outcomes, weights, alpha):
    """FastChat's `bt_loss_and_grad`: ratings in log10-strength units, logits α·(r_a − r_b), α = ln 10."""
    logits = alpha * (ratings[matchups[:, 0]] - ratings[matchups[:, 1]])
    loss = -((log_expit(logits) * outcomes + log_expit(-logits) * (1.0 - outcomes)) * weights).sum()
    grads = -alpha * (outcomes - expit(logits)) * weights
    model_grad = np.zeros_like(ratings)
    np.add.at(model_grad, matchups[:, [0, 1]], grads[:, None] * np.array([1.0, -1.0]))
    return loss, model_grad


def fastchat_fit(matchups, outcomes, weights, players, tol=1e-6, maxiter=100, **options):
    """FastChat's `fit_bt`: L-BFGS-B from zero, gtol 1e-6, maxiter 100 (its `disp=False` left out: deprecated in
    SciPy 1.17 and off anyway); then ×400 + 1000 (mean 1000)."""
    result = minimize(
        fastchat_loss_and_grad,
        np.zeros(players),
        args=(matchups, outcomes, weights, math.log(10)),
        jac=True,
        method="L-BFGS-B",
        options={"maxiter": maxiter, "gtol": tol, **options},
    )
    rating = 400.0 * result.x
    return 1000.0 + rating - rating.mean()


class Clock:
    """Wall-clock and CPU seconds (this process, every thread) since the last lap."""

    def __init__(self):
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def lap(self) -> tuple[float, float]:
        wall, cpu = time.perf_counter(), time.process_time()
        lap = (wall - self.wall, cpu - self.cpu)
        self.wall, self.cpu = wall, cpu
        return lap


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--systems", type=int, default=100)
    ap.add_argument("--battles", type=int, default=1_000_000)
    ap.add_argument("--replicates", type=int, default=1000)
    ap.add_argument("--baseline-replicates", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    args = add_options(ap).parse_args()

    rng = np.random.default_rng(args.seed)
    battles, truth = simulate(args.systems, args.battles, rng)
    print(
        f"{args.systems} systems, {len(battles):,} battles, {args.replicates} bootstrap replicates "
        f"(cpus: {os.cpu_count()}, load average {os.getloadavg()[0]:.2f})"
    )

    # --- arena.stats (wall-clock and CPU seconds of this process, all its threads)
    clock = Clock()
    fit = stats.bradley_terry_fit(battles)
    point_s, point_cpu = clock.lap()
    boot = stats.bradley_terry_bootstrap(battles, replicates=args.replicates, seed=args.seed + 1, fit=fit)
    boot_s, boot_cpu = clock.lap()
    ours_s, ours_cpu = point_s + boot_s, point_cpu + boot_cpu
    ours_point = stats.theta_to_rating(fit.theta)
    ours_boot = stats.theta_to_rating(boot)
    low, high = np.quantile(ours_boot, [0.025, 0.975], axis=0)

    # --- baseline: FastChat-style, its multinomial draw and one L-BFGS refit per replicate, on the same draws
    cells = stats.battle_cells(battles)
    matchups = np.column_stack([cells.pair_i[cells.cell_pair], cells.pair_j[cells.cell_pair]])
    outcomes = cells.cell_score
    total = int(cells.cell_count.sum())
    clock = Clock()
    base_point = fastchat_fit(matchups, outcomes, cells.cell_count / total, args.systems)
    b_point_s, b_point_cpu = clock.lap()
    draws = np.random.default_rng(args.seed + 1).multinomial(
        total, cells.cell_count / total, size=args.baseline_replicates
    )
    base_boot = np.array([fastchat_fit(matchups, outcomes, counts / total, args.systems) for counts in draws])
    b_boot_s, b_boot_cpu = clock.lap()
    runs = max(args.baseline_replicates, 1)
    per_replicate, per_replicate_cpu = b_boot_s / runs, b_boot_cpu / runs
    baseline_s = b_point_s + per_replicate * args.replicates
    baseline_cpu = b_point_cpu + per_replicate_cpu * args.replicates

    tight = fastchat_fit(
        matchups, outcomes, cells.cell_count / total, args.systems, tol=1e-12, maxiter=10_000, ftol=1e-16, maxcor=50
    )
    delta_tight = float(np.max(np.abs(ours_point - tight)))
    delta_point = float(np.max(np.abs(ours_point - base_point)))
    delta_boot = float(np.max(np.abs(ours_boot[: args.baseline_replicates] - base_boot)))
    delta_truth = float(np.max(np.abs(ours_point - (1000 + truth - truth.mean()))))
    coverage = float(np.mean((low <= 1000 + truth - truth.mean()) & (1000 + truth - truth.mean() <= high)))
    speedup, speedup_cpu = baseline_s / ours_s, baseline_cpu / ours_cpu
    print(
        f"arena.stats           : {ours_s:8.2f} s wall, {ours_cpu:6.2f} s CPU  (point fit {point_s:.2f} s, "
        f"{boot_s / args.replicates * 1000:.2f} ms per replicate, all replicates fitted together)"
    )
    print(
        f"baseline (FastChat)   : {baseline_s:8.2f} s wall, {baseline_cpu:6.2f} s CPU  (point fit {b_point_s:.2f} s, "
        f"{per_replicate * 1000:.1f} ms per replicate: {args.baseline_replicates} replicates run, extrapolated to "
        f"{args.replicates})"
    )
    print(
        f"speed-up              : {speedup:8.1f}× wall, {speedup_cpu:.1f}× CPU  "
        f"(target ≥ {TARGET:g}×: {'met' if speedup >= TARGET else 'not met'})"
    )
    print(
        f"max |Δ rating|        : point fits {delta_point:.2e}, replicates {delta_boot:.2e} "
        f"(the baseline stops early with FastChat's settings: maxiter 100, gtol 1e-6, L-BFGS-B's default ftol; "
        f"Newton at |Δθ| < 1e-10); against L-BFGS run to "
        f"convergence (gtol 1e-12, ftol 1e-16): {delta_tight:.1e}"
    )
    print(
        f"against the truth     : max |error| {delta_truth:.1f} points, "
        f"95 % intervals cover {coverage:.0%} of the systems, "
        f"median width {float(np.median(high - low)):.1f} points"
    )
    result = {
        "systems": args.systems,
        "battles": len(battles),
        "replicates": args.replicates,
        "seconds": round(ours_s, 3),
        "cpu_seconds": round(ours_cpu, 3),
        "point_fit_seconds": round(point_s, 3),
        "baseline_seconds": round(baseline_s, 3),
        "baseline_cpu_seconds": round(baseline_cpu, 3),
        "baseline_point_fit_seconds": round(b_point_s, 3),
        "baseline_seconds_per_replicate": round(per_replicate, 5),
        "baseline_replicates_run": args.baseline_replicates,
        "baseline_extrapolated": True,
        "speedup": round(speedup, 2),
        "speedup_cpu": round(speedup_cpu, 2),
        "target_speedup": TARGET,
        "met": speedup >= TARGET,
        "max_abs_delta_rating": delta_point,
        "max_abs_delta_rating_replicates": delta_boot,
        "max_abs_delta_rating_vs_tight_lbfgs": delta_tight,
        "max_abs_error_vs_truth": round(delta_truth, 2),
        "ci_coverage_of_truth": coverage,
    }
    print(json.dumps(result))
    record_if_asked("ratings", result, args)


if __name__ == "__main__":
    main()
