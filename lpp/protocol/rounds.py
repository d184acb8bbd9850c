"""Round numbers against the day's schedule (no Django). Sessions that start within ``SLOT_GAP_S`` of
the previous one share a time slot (an aborted session restarted minutes later is in the same slot); a
contest's slots follow each other in round order. A slot's round is the round its sessions state; where
they disagree, the one that fits between the neighbouring slots' rounds (then the most stated, then the
lowest). A session whose stated round is not its slot's contradicts the schedule (2012: ``d_burke_adam``
says round 2 in the round-4 slot; the blank-judge ``b-wilcox-angela`` test says round 4 in the round-1
slot). A slot whose round goes down from the previous slot's is flagged too."""

from __future__ import annotations

from collections import Counter

SLOT_GAP_S = 15 * 60


def _slots(sessions):
    timed = sorted(
        (
            (start, key, int(stated))
            for key, stated, start in sessions
            if start is not None and str(stated).strip().isdigit()
        ),
        key=lambda t: (t[0], t[1]),
    )
    slots: list[list[tuple]] = []
    for session in timed:
        if slots and session[0] - slots[-1][-1][0] <= SLOT_GAP_S:
            slots[-1].append(session)
        else:
            slots.append([session])
    return slots


def round_contradictions(sessions: list[tuple[str, str, float | None]]) -> dict[str, str]:
    """``sessions``: (key, stated round, start in seconds). key -> why, for each contradicting session;
    sessions with no round number or no start are not judged."""
    slots = _slots(sessions)
    counts = [Counter(number for *_, number in slot) for slot in slots]
    agreed = [next(iter(c)) if len(c) == 1 else None for c in counts]
    rounds = []
    for i, count in enumerate(counts):
        if agreed[i] is not None:
            rounds.append(agreed[i])
            continue
        low = next((r for r in reversed(agreed[:i]) if r is not None), None)
        high = next((r for r in agreed[i + 1 :] if r is not None), None)
        fitting = [r for r in count if (low is None or r >= low) and (high is None or r <= high)] or list(count)
        rounds.append(min(fitting, key=lambda r: (-count[r], r)))
    flagged = {}
    for i, slot in enumerate(slots):
        for _start, key, number in slot:
            if number != rounds[i]:
                flagged[key] = f"round {number} contradicts the schedule: the session sits in round {rounds[i]}'s slot"
            elif i and rounds[i] < rounds[i - 1]:
                flagged[key] = f"round {number} contradicts the schedule: its slot comes after round {rounds[i - 1]}'s"
    return flagged
