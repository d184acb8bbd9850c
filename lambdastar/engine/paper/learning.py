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


@njit(cache=True)
def greedy(state, q, i, cell):
    """A uniformly chosen action among the maxima of Q((cell, i), ·)."""
    best = q[i, cell, 0]
    for a in range(1, 9):
        if q[i, cell, a] > best:
            best = q[i, cell, a]
    ties = 0
    for a in range(9):
        if q[i, cell, a] == best:
            ties += 1
    r = randint(state, ties) if ties > 1 else 0
    for a in range(9):
        if q[i, cell, a] == best:
            if r == 0:
                return a
            r -= 1
    return 0  # unreachable


@njit(cache=True)
def choose(state, q, i, cell, epsilon):
    if epsilon > 0.0 and uniform(state) < epsilon:
        return randint(state, 9)
    return greedy(state, q, i, cell)


@njit(cache=True)
def train_session(state, kind, tables, good, evil, starts, width, height, iterations, agents,
                  coordination, alpha, gamma, epsilon, pos, prev, act, rew):
    shared = kind == COOPQL or kind == COOPSARSA
    sarsa = kind == SARSA or kind == COOPSARSA
    for j in range(agents):
        pos[j] = starts[j]
        if sarsa:
            act[j] = choose(state, tables[0 if shared else j], 0, pos[j], epsilon)
    for i in range(iterations):
        for j in range(agents):
            q = tables[0 if shared else j]
            if not sarsa:
                act[j] = choose(state, q, i, pos[j], epsilon)
            prev[j] = pos[j]
            pos[j] = move(pos[j], act[j], width, height)
        group_rewards(pos, agents, good[i + 1], evil[i + 1], width, height, coordination, rew)
        last = i + 1 == iterations
        for j in range(agents):
            q = tables[0 if shared else j]
            a = act[j]
            target = rew[j]
            if not last:
                if sarsa:
                    nxt = choose(state, q, i + 1, pos[j], epsilon)
                    target += gamma * q[i + 1, pos[j], nxt]
                    act[j] = nxt
                else:
                    best = q[i + 1, pos[j], 0]
                    for b in range(1, 9):
                        best = max(best, q[i + 1, pos[j], b])
                    target += gamma * best
            q[i, prev[j], a] += alpha * (target - q[i, prev[j], a])


@njit(cache=True)
def learning_episode(state, kind, good, evil, starts, width, height, iterations, agents,
                     coordination, alpha, gamma, epsilon, q_init, sessions,
                     tables, pos, prev, act, rew):
    """Train, then return the test score (mean reward per agent per iteration)."""
    shared = kind == COOPQL or kind == COOPSARSA
    used = 1 if shared else agents
    tables[:used] = q_init
    for _ in range(sessions):
        train_session(state, kind, tables, good, evil, starts, width, height, iterations, agents,
                      coordination, alpha, gamma, epsilon, pos, prev, act, rew)
    for j in range(agents):
        pos[j] = starts[j]
    total = 0.0
    for i in range(iterations):
        for j in range(agents):
            q = tables[0 if shared else j]
            pos[j] = move(pos[j], greedy(state, q, i, pos[j]), width, height)
        total += group_rewards(pos, agents, good[i + 1], evil[i + 1], width, height, coordination, rew)
    return total / (agents * iterations)
