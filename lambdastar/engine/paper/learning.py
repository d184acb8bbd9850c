"""ε-greedy Q-learning and SARSA agents of the ``paper`` rule set, one episode at a time (Numba).

State = (cell, iteration i) with i = 0 … ϑ−1 (paper §5.2.1, Algorithm 1): |S| = m·n·ϑ, nine
actions.  Before each test episode the agents train for ``training_episodes`` sessions on that
very episode (same Good/Evil paths and start cells, as the reference code does); a session is
one pass of ϑ iterations:

* ε-greedy choice (explore with probability ε, otherwise a random maximum of Q);
* after every agent has moved and Good/Evil have stepped, each agent gets its real reward r
  (coordination rule included) and updates, in agent order,
  Q(s_i, a) += α·(r + γ·max_b Q(s_{i+1}, b) − Q(s_i, a))        (ql, coopql)
  Q(s_i, a) += α·(r + γ·Q(s_{i+1}, a′) − Q(s_i, a))             (sarsa, coopsarsa)
  with the correct next state s_{i+1} = (c_{i+1}, i+1), nothing to bootstrap after the last
  iteration, and for SARSA a′ chosen ε-greedily in s_{i+1} and executed next.

``coopql``/``coopsarsa`` share one table: all agents choose and move on the same table, then
update it in agent order.  The test episode is greedy (ties broken at random), unlearned rewards.
"""

from __future__ import annotations

from numba import njit

from .streams import randint, uniform
from .world import group_rewards, move

QL, COOPQL, SARSA, COOPSARSA = 9, 10, 11, 12


@njit(cache=True, inline="always")
def greedy(state, q, tab, i, cell):
    """A uniformly chosen action among the maxima of Q((cell, i), ·) in table ``tab``."""
    best = q[tab, i, cell, 0]
    for a in range(1, 9):
        if q[tab, i, cell, a] > best:
            best = q[tab, i, cell, a]
    ties = 0
    for a in range(9):
        if q[tab, i, cell, a] == best:
            ties += 1
    r = randint(state, ties) if ties > 1 else 0
    for a in range(9):
        if q[tab, i, cell, a] == best:
            if r == 0:
                return a
            r -= 1
    return 0  # unreachable


@njit(cache=True, inline="always")
def choose(state, q, tab, i, cell, epsilon):
    if epsilon > 0.0 and uniform(state) < epsilon:
        return randint(state, 9)
    return greedy(state, q, tab, i, cell)


@njit(cache=True)
def train_session(
    state,
    kind,
    tables,
    geo,
    good,
    evil,
    starts,
    iterations,
    agents,
    coordination,
    alpha,
    gamma,
    epsilon,
    pos,
    prev,
    act,
    rew,
):
    shared = kind == COOPQL or kind == COOPSARSA
    sarsa = kind == SARSA or kind == COOPSARSA
    for j in range(agents):
        pos[j] = starts[j]
        if sarsa:
            act[j] = choose(state, tables, 0 if shared else j, 0, pos[j], epsilon)
    for i in range(iterations):
        for j in range(agents):
            if not sarsa:
                act[j] = choose(state, tables, 0 if shared else j, i, pos[j], epsilon)
            prev[j] = pos[j]
            pos[j] = move(geo, pos[j], act[j])
        group_rewards(geo, pos, agents, good[i + 1], evil[i + 1], coordination, rew)
        last = i + 1 == iterations
        for j in range(agents):
            tab = 0 if shared else j
            a = act[j]
            target = rew[j]
            if not last:
                if sarsa:
                    nxt = choose(state, tables, tab, i + 1, pos[j], epsilon)
                    target += gamma * tables[tab, i + 1, pos[j], nxt]
                    act[j] = nxt
                else:
                    best = tables[tab, i + 1, pos[j], 0]
                    for b in range(1, 9):
                        best = max(best, tables[tab, i + 1, pos[j], b])
                    target += gamma * best
            tables[tab, i, prev[j], a] += alpha * (target - tables[tab, i, prev[j], a])


@njit(cache=True)
def learning_episode(
    state,
    kind,
    geo,
    good,
    evil,
    starts,
    iterations,
    agents,
    coordination,
    alpha,
    gamma,
    epsilon,
    q_init,
    sessions,
    tables,
    pos,
    prev,
    act,
    rew,
):
    """Train, then return the test score (mean reward per agent per iteration)."""
    shared = kind == COOPQL or kind == COOPSARSA
    used = 1 if shared else agents
    tables[:used] = q_init
    for _ in range(sessions):
        train_session(
            state,
            kind,
            tables,
            geo,
            good,
            evil,
            starts,
            iterations,
            agents,
            coordination,
            alpha,
            gamma,
            epsilon,
            pos,
            prev,
            act,
            rew,
        )
    for j in range(agents):
        pos[j] = starts[j]
    total = 0.0
    for i in range(iterations):
        for j in range(agents):
            pos[j] = move(geo, pos[j], greedy(state, tables, 0 if shared else j, i, pos[j]))
        total += group_rewards(geo, pos, agents, good[i + 1], evil[i + 1], coordination, rew)
    return total / (agents * iterations)
