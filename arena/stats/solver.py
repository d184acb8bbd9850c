"""Maximising the Bradley–Terry log-likelihood for many rows (replicates, leave-one-out fits) at once:
damped Newton, the chord iteration, and the prior rule (Ford's condition)."""

from __future__ import annotations

import numpy as np
from scipy import sparse
from scipy.sparse.csgraph import connected_components
from scipy.special import expit, log_expit

from arena.stats.battles import BattleCells

DEFAULT_PRIOR = 1.0  # virtual battles (one tie) per player against θ = 0, used only when the MLE does not exist


def _strongly_connected(players: int, i, j, n_row, w_row) -> bool:
    """Ford's condition: the graph with an edge i→j whenever i scored against j is strongly connected."""
    if players <= 1:
        return True
    forward, backward = w_row > 0, (n_row - w_row) > 0
    src = np.concatenate([i[forward], j[backward]])
    dst = np.concatenate([j[forward], i[backward]])
    graph = sparse.csr_matrix((np.ones(len(src)), (src, dst)), shape=(players, players))
    return connected_components(graph, directed=True, connection="strong")[0] == 1


def _loglik(theta, i, j, n, w, prior):
    d = theta[:, i] - theta[:, j]
    value = (w * log_expit(d) + (n - w) * log_expit(-d)).sum(axis=1)
    return value + 0.5 * prior * (log_expit(theta) + log_expit(-theta)).sum(axis=1)


class _Model:
    """ℓ_τ's gradient and negated Hessian A = −∇²ℓ_τ for R rows at once (θ: (R, P); n, w: (R, K))."""

    def __init__(self, cells: BattleCells):
        p, k = cells.players, cells.pair_i.size
        self.p, self.i, self.j = p, cells.pair_i, cells.pair_j
        self.incidence = sparse.csr_matrix(
            (
                np.concatenate([np.ones(k), -np.ones(k)]),
                (np.concatenate([np.arange(k)] * 2), np.concatenate([self.i, self.j])),
            ),
            shape=(k, p),
        )
        self.touches = abs(self.incidence)
        self.off_ij, self.off_ji, self.diag = self.i * p + self.j, self.j * p + self.i, np.arange(p) * (p + 1)

    def gradient(self, theta, n, w, prior, s=None):
        """∂ℓ_τ/∂θᵢ = Σ_{pairs of i} ±(w − n·σ(θᵢ − θⱼ)) + (τ/2)(1 − 2σ(θᵢ))."""
        if s is None:  # in place: one (R, K) temporary
            residual = np.subtract(theta[:, self.i], theta[:, self.j])
            expit(residual, out=residual)
        else:
            residual = s.copy()
        residual *= n
        np.subtract(w, residual, out=residual)
        scatter = self.incidence.T @ residual.T  # (P, R)
        return scatter.T + 0.5 * prior[:, None] * (1.0 - 2.0 * expit(theta))

    def hessian(self, theta, n, prior, s=None):
        """A = −∇²ℓ_τ: Aᵢⱼ = −nᵢⱼσ(1−σ), Aᵢᵢ = Σⱼ nᵢⱼσ(1−σ) + τσ(θᵢ)σ(−θᵢ); rows with τ = 0 get
        c·11ᵀ added (c = mean diagonal / P), which pins the free shift and leaves the step unchanged."""
        rows, p = theta.shape[0], self.p
        s = expit(theta[:, self.i] - theta[:, self.j]) if s is None else s
        v = n * s * (1.0 - s)
        hess = np.zeros((rows, p * p))
        hess[:, self.off_ij] = -v
        hess[:, self.off_ji] = -v
        hess[:, self.diag] = np.asarray((self.touches.T @ v.T).T) + prior[:, None] * expit(theta) * expit(-theta)
        hess = hess.reshape(rows, p, p)
        flat = prior == 0
        if flat.any():
            hess[flat] += (np.trace(hess[flat], axis1=1, axis2=2) / (p * p) + 1e-12)[:, None, None]
        return hess


def _solve(hess, grad):
    """Batched A⁻¹g.  By Cholesky and two batched triangular solves: OpenBLAS's threaded LU on many small
    matrices can be 100× slower on a busy machine; a failed factorisation falls back to least squares."""
    try:
        lower = np.linalg.cholesky(hess)
    except np.linalg.LinAlgError:
        return np.stack([np.linalg.lstsq(h, g, rcond=None)[0] for h, g in zip(hess, grad)])
    p = hess.shape[-1]
    y = np.empty_like(grad)
    for k in range(p):  # L y = g
        y[:, k] = (grad[:, k] - np.einsum("rj,rj->r", lower[:, k, :k], y[:, :k])) / lower[:, k, k]
    x = np.empty_like(grad)
    for k in range(p - 1, -1, -1):  # Lᵀ x = y
        x[:, k] = (y[:, k] - np.einsum("rj,rj->r", lower[:, k + 1 :, k], x[:, k + 1 :])) / lower[:, k, k]
    return x


def _newton(
    cells: BattleCells,
    n: np.ndarray,
    w: np.ndarray,
    prior: np.ndarray,
    theta0: np.ndarray | None = None,
    *,
    tol: float = 1e-10,
    max_iter: int = 200,
) -> tuple[np.ndarray, np.ndarray]:
    """Maximise ℓ_τ for R rows at once.  n, w: (R, K) games and pair_i's score; prior: (R,) τ per row.
    Returns (θ (R, P), converged (R,)).  Rows with τ = 0 are kept centred (Σθ = 0, the free shift);
    damped: a step that lowers ℓ_τ is halved until it does not."""
    model = _Model(cells)
    i, j = model.i, model.j
    rows = n.shape[0]
    theta = np.zeros((rows, cells.players)) if theta0 is None else np.array(theta0, dtype=np.float64, copy=True)
    flat = prior == 0
    converged = np.zeros(rows, dtype=bool)
    active = np.arange(rows)
    for _ in range(max_iter):
        if active.size == 0:
            break
        t, na, wa, pa = theta[active], n[active], w[active], prior[active]
        s = expit(t[:, i] - t[:, j])
        step = _solve(model.hessian(t, na, pa, s), model.gradient(t, na, wa, pa, s))
        before = _loglik(t, i, j, na, wa, pa)
        scale = np.ones(len(active))
        for _ in range(40):
            trial = t + scale[:, None] * step
            worse = _loglik(trial, i, j, na, wa, pa) < before - 1e-12 * (1.0 + np.abs(before))
            if not worse.any():
                break
            scale[worse] *= 0.5
        fa = flat[active]
        trial[fa] -= trial[fa].mean(axis=1, keepdims=True)
        theta[active] = trial
        done = np.max(np.abs(scale[:, None] * step), axis=1) < tol
        converged[active[done]] = True
        active = active[~done]
    return theta, converged


def _chord(
    cells: BattleCells,
    n: np.ndarray,
    w: np.ndarray,
    prior: np.ndarray,
    theta0: np.ndarray,
    inverse: np.ndarray,
    *,
    tol: float = 1e-10,
    max_iter: int = 60,
) -> np.ndarray:
    """Bootstrap replicates near the point fit θ̂: Newton's iteration with the point fit's Hessian for
    every row (the chord method), θ ← θ + A(θ̂)⁻¹∇ℓ_τ(θ): one matrix product per iteration instead of R
    factorisations, converging linearly at a rate set by how far a replicate's Hessian is from A(θ̂)
    (fast when every pair has many battles).  A row whose step stops shrinking, or that has not
    converged after max_iter, is finished by the damped Newton method."""
    model = _Model(cells)
    theta = np.array(theta0, dtype=np.float64, copy=True)
    rows = theta.shape[0]
    flat = prior == 0
    last = np.full(rows, np.inf)
    active = np.arange(rows)
    hard = np.zeros(rows, dtype=bool)
    for _ in range(max_iter):
        if active.size == 0:
            break
        t = theta[active]
        step = model.gradient(t, n[active], w[active], prior[active]) @ inverse
        size = np.max(np.abs(step), axis=1)
        bad = ~np.isfinite(size) | (size >= last[active])
        hard[active[bad]] = True
        keep = ~bad
        t = t[keep] + step[keep]
        fa = flat[active[keep]]
        t[fa] -= t[fa].mean(axis=1, keepdims=True)
        theta[active[keep]] = t
        last[active[keep]] = size[keep]
        active = active[keep][size[keep] >= tol]
    hard[active] = True
    if hard.any():
        theta[hard], _ = _newton(cells, n[hard], w[hard], prior[hard], theta0[hard])
    return theta


def _row_priors(cells: BattleCells, n: np.ndarray, w: np.ndarray, prior: float | None, base_pattern=None) -> np.ndarray:
    """τ per row: `prior` when given, else 0 where Ford's condition holds and DEFAULT_PRIOR where not.
    Rows whose pattern of zero cells equals `base_pattern` (known to hold) are not re-checked."""
    rows = n.shape[0]
    if prior is not None:
        return np.full(rows, float(prior))
    taus = np.zeros(rows)
    check = np.arange(rows)
    if base_pattern is not None:
        same = np.all((w > 0) == base_pattern[0], axis=1) & np.all((n - w > 0) == base_pattern[1], axis=1)
        check = check[~same]
    for r in check:
        if not _strongly_connected(cells.players, cells.pair_i, cells.pair_j, n[r], w[r]):
            taus[r] = DEFAULT_PRIOR
    return taus
