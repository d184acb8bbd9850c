"""The matcher's rules, pure and fast: 10,000 simulated arrivals keep the shares, the counterbalancing
and the pairing rules; hypothesis varies the design; a player's wait tells nothing of their witness."""

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from studies.rules.design import design_read
from studies.rules.matching import HUMAN, Lobby, block_ai_games, game_block


def config(**overrides):
    base = {
        "format": "two-party",
        "minutes": 5,
        "human_witness_share": 0.5,
        "games_per_participant": 4,
        "seed": 7,
        "witnesses": [
            {"name": "GPT-persona", "engine": "simple", "settings": {}},
            {"name": "GPT-plain", "engine": "simple", "settings": {}},
            {"name": "ELIZA", "engine": "eliza", "settings": {}},
        ],
    }
    return design_read({**base, **overrides})


def run(design, arrivals, people, *, gap=0.05, devices=None, seed=1):
    """`arrivals` arrivals of `people` participants (each at most games_per_participant games)."""
    rng = random.Random(seed)
    lobby, matches, now = Lobby(design), [], 0.0
    games = Counter()
    for _ in range(arrivals):
        now += rng.expovariate(1 / gap)
        before = len(matches)
        matches += lobby.expire(now)
        for m in matches[before:]:
            games[m.interrogator] += 1
        waiting = {w.participant for w in lobby.waiting}
        person = next(
            (
                p
                for p in (rng.randrange(people) for _ in range(200))
                if games[p] < design.games_per_participant and p not in waiting
            ),
            None,
        )
        if person is None:
            break
        identities = {f"device:{devices[person]}"} if devices else ()
        lobby.arrive(person, now, identities)
        for m in matches[before:]:
            if m.witness is not None:
                games[m.witness] += 1
    matches += lobby.expire(now + 2 * design.human_wait_s + 3600)
    return lobby, matches


def test_ten_thousand_arrivals_keep_shares_counterbalancing_and_pairing_rules():
    design = config()
    lobby, matches = run(design, 10_000, 3000)
    assert len(matches) > 5500
    assert all(m.interrogator != m.witness for m in matches)  # never their own witness
    pairs = [frozenset((m.interrogator, m.witness)) for m in matches if m.witness is not None]
    assert len(pairs) == len(set(pairs))  # never the same partner twice
    human = sum(m.witness is not None for m in matches)
    assert abs(human / len(matches) - 0.5) < 0.02, human / len(matches)
    per_condition = Counter(m.condition for m in matches if m.witness is None)
    assert (
        len(per_condition) == 3 and max(per_condition.values()) - min(per_condition.values()) <= 0.03 * len(matches) / 3
    )
    # every block deals each condition's AI games equally often
    block = game_block(design)
    for number in range(50):
        assert Counter(block_ai_games(design, number, block)) == Counter(k for k in block if k != HUMAN)
    assert sum(m.fallback for m in matches) < 0.01 * len(matches)


def test_roles_are_balanced_between_partners():
    design = config(human_witness_share=1.0)
    _, matches = run(design, 4000, 800)
    roles = Counter()
    for m in matches:
        roles[m.interrogator] += 1
        roles[m.witness] -= 1
    # every participant interrogates about as often as they are the witness
    assert max(abs(balance) for balance in roles.values()) <= 3
    assert sum(abs(b) for b in roles.values()) / len(roles) < 1.0


def test_the_same_device_is_never_matched_with_itself():
    design = config(human_witness_share=1.0)
    devices = {p: p // 2 for p in range(400)}  # two participants per browser
    _, matches = run(design, 2000, 400, devices=devices)
    pairs = [m for m in matches if m.witness is not None]
    assert pairs and all(devices[m.interrogator] != devices[m.witness] for m in pairs)


def test_a_lonely_interrogator_falls_back_to_an_ai_witness_at_their_drawn_time():
    design = config(human_witness_share=1.0, min_wait_s=5, human_wait_s=30)
    lobby = Lobby(design)
    lobby.arrive(1, 0.0)
    lobby.arrive(1, 1.0)  # a second tab changes nothing
    assert lobby.tickets == 1 and lobby.expire(4.9) == []
    wait = lobby.waiting[0].wait
    assert 5 <= wait <= 30 and lobby.expire(wait - 0.01) == []
    [match] = lobby.expire(wait)
    assert match.interrogator == 1 and match.witness is None and match.fallback and match.condition in (0, 1, 2)
    assert match.waits == ((1, wait),)


def test_no_fallback_means_the_wait_is_cancelled():
    design = config(human_witness_share=1.0, fallback="cancel")
    lobby = Lobby(design)
    lobby.arrive(1, 0.0)
    assert lobby.expire(100.0) == [] and lobby.waiting == [] and lobby.planned == []


def test_repeat_partners_only_where_allowed():
    for allowed in (False, True):
        design = config(human_witness_share=1.0, repeat_partners=allowed)
        lobby = Lobby(design)
        lobby.arrive(1, 0.0)
        lobby.arrive(2, 1.0)
        [first] = lobby.expire(100.0)
        assert {first.interrogator, first.witness} == {1, 2}
        lobby.arrive(1, 200.0)
        lobby.arrive(2, 201.0)
        second = lobby.expire(300.0)
        assert any(m.witness is not None for m in second) == allowed


def test_role_switching_off_keeps_each_first_role():
    design = config(human_witness_share=1.0, role_switching=False)
    _, matches = run(design, 1500, 200)
    first = {}
    for m in matches:
        for person, role in ((m.interrogator, "i"), (m.witness, "w")):
            if person is not None:
                assert first.setdefault(person, role) == role


def test_the_same_seed_deals_the_same_study():
    a = run(config(seed=11), 500, 100)[1]
    b = run(config(seed=11), 500, 100)[1]
    c = run(config(seed=12), 500, 100)[1]
    assert a == b and a != c


def test_three_party_games_always_pair_a_human_with_a_counterbalanced_ai():
    design = config(format="three-party")
    _, matches = run(design, 3000, 600)
    pairs = [m for m in matches if not m.fallback]
    assert all(m.witness is not None and m.condition is not None for m in pairs)
    counts = Counter(m.condition for m in pairs)
    assert max(counts.values()) - min(counts.values()) <= 1  # one counterbalanced stream


@settings(max_examples=60, deadline=None)
@given(
    share=st.sampled_from([0.0, 0.1, 0.25, 0.5, 2 / 3, 0.9, 1.0]),
    conditions=st.integers(1, 4),
    seed=st.integers(0, 2**32),
    three=st.booleans(),
)
def test_any_design_deals_its_shares_every_block_and_never_self_matches(share, conditions, seed, three):
    design = config(
        human_witness_share=share,
        seed=seed,
        format="three-party" if three else "two-party",
        witnesses=[{"name": f"W{i}", "engine": "simple"} for i in range(conditions)],
    )
    block = game_block(design)
    humans = sum(kind == HUMAN for kind in block)
    if not three:
        ai = len(block) - humans
        if ai and humans:
            assert abs(humans / (humans + ai) - share) < 0.01  # human games : AI games = s : 1-s
    for n in range(3):
        assert Counter(block_ai_games(design, n, block)) == Counter(k for k in block if k != HUMAN)
    _, matches = run(design, 300, 60, seed=seed)
    assert all(m.interrogator != m.witness for m in matches)


def _ks(a: list[float], b: list[float]) -> float:
    """The two-sample Kolmogorov–Smirnov statistic: the largest gap between the two empirical CDFs."""
    a, b = sorted(a), sorted(b)
    i = j = 0
    gap = 0.0
    while i < len(a) and j < len(b):
        x = min(a[i], b[j])
        while i < len(a) and a[i] <= x:
            i += 1
        while j < len(b) and b[j] <= x:
            j += 1
        gap = max(gap, abs(i / len(a) - j / len(b)))
    return gap


def test_a_players_wait_has_the_same_distribution_whether_their_witness_is_human_or_a_machine():
    """Thousands of seeded arrivals, sparse and busy: the waits of players given a human witness (or
    made one) and of players given an AI witness are one distribution. Tolerance: the KS statistic below
    its 1 % critical value (1.63·√((n+m)/nm)) and below 0.04 in absolute terms."""
    design = config(
        human_witness_share=0.5, min_wait_s=5, human_wait_s=30, repeat_partners=True, games_per_participant=1000
    )
    for mean_gap in (2.0, 5.0, 15.0):
        rng, lobby, matches, now = random.Random(11), Lobby(design), [], 0.0
        for person in range(6000):
            now += rng.expovariate(1 / mean_gap)
            matches += lobby.expire(now)
            lobby.arrive(person, now)
        matches += lobby.expire(now + 3600)
        human = [wait for m in matches if m.witness is not None for _, wait in m.waits]
        machine = [wait for m in matches if m.witness is None for _, wait in m.waits]
        n, m = len(human), len(machine)
        assert n > 500 and m > 500, (mean_gap, n, m)
        statistic = _ks(human, machine)
        assert statistic < min(0.04, 1.63 * ((n + m) / (n * m)) ** 0.5), (mean_gap, statistic)
        # and no wait is shorter than the shortest draw: nothing starts "at once"
        assert min(human + machine) >= design.min_wait_s


def test_two_players_who_press_play_within_the_window_meet():
    design = config(human_witness_share=0.5, min_wait_s=5, human_wait_s=30)
    for seed in range(40):
        lobby = Lobby(config(human_witness_share=0.5, min_wait_s=5, human_wait_s=30, seed=seed))
        lobby.arrive(1, 0.0)
        lobby.expire(4.0)
        lobby.arrive(2, 4.0)
        [game] = lobby.expire(100.0)
        assert {game.interrogator, game.witness} == {1, 2}, seed
    assert design.min_wait_s == 5
