"""The arena's reads: full states for (re)connecting pages, published transcripts and their seals, and
results (verdicts as battles, ratings, pass rates, judges; the statistics themselves are arena.stats)."""
import dataclasses
import re
import uuid
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, Max, Prefetch, Q

from arena import charts, payloads, roles, signing, stats
from core import hashchain
from core.errors import NotAllowed
from arena.services.keystrokes import composing_line
from arena.models import Conversation, ConversationSeal, Interrogation, Message, Status, Verdict

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)


def interrogation_for_judge(*, public_id, user) -> Interrogation:
    interrogation = Interrogation.objects.filter(public_id=public_id).first()
    if interrogation is None or not user.is_authenticated or interrogation.judge_id != user.pk:
        raise NotAllowed("This is not your interrogation.")
    return interrogation


def conversation_for_witness(*, public_id, user) -> Conversation:
    conversation = Conversation.objects.select_related("interrogation").filter(public_id=public_id).first()
    if conversation is None or not user.is_authenticated or conversation.witness_human_id != user.pk:
        raise NotAllowed("This is not your conversation.")
    return conversation


def judge_state(*, interrogation: Interrogation) -> dict:
    """Everything the judge may see. The truth about the witnesses only once the verdict is in."""
    interrogation.refresh_from_db()
    conversations = list(
        interrogation.conversations.select_related("witness_entry").prefetch_related(
            Prefetch("messages", queryset=Message.objects.order_by("seq"))
        )
    )
    verdict = Verdict.objects.filter(interrogation=interrogation).first()
    return {
        "type": "state",
        "kind": interrogation.kind,
        "title": interrogation.title,
        **payloads.clock(interrogation),
        "sides": sorted(c.side for c in conversations),
        "messages": {c.side: [payloads.judge_message(m, c.side) for m in c.messages.all()] for c in conversations},
        "composing": {c.side: composing_line(c, "witness") for c in conversations} if interrogation.keystroke_mode else {},
        "verdict": payloads.judge_verdict(verdict),
        "reveal": payloads.judge_reveal(conversations) if verdict else None,
        "correct": verdict.correct if verdict else None,
    }


def witness_state(*, conversation: Conversation) -> dict:
    interrogation = Interrogation.objects.get(pk=conversation.interrogation_id)
    return {
        "type": "state",
        **payloads.clock(interrogation),
        "messages": [payloads.witness_message(m) for m in conversation.messages.order_by("seq")],
        "composing": composing_line(conversation, "interrogator") if interrogation.keystroke_mode else "",
    }


def monitor_state() -> dict:
    live = (
        Interrogation.objects.filter(Q(status__in=[Status.SCHEDULED, Status.RUNNING]) | Q(verdict__isnull=True, status=Status.ENDED))
        .select_related("judge")
        .order_by("-created_at")[:50]
    )
    interrogations = []
    for interrogation in live:
        item = payloads.monitor_interrogation(interrogation)
        item["conversations"] = [
            {
                "side": c.side,
                "witness": c.witness_label,
                "witness_kind": "machine" if c.witness_is_machine else "human",
                "messages": [payloads.monitor_message(m, c) for m in c.messages.order_by("seq")],
            }
            for c in interrogation.conversations.select_related("witness_entry", "witness_human")
        ]
        interrogations.append(item)
    return {"type": "state", "interrogations": interrogations}


def judge_interrogations(*, user):
    return Interrogation.objects.filter(judge=user).select_related("verdict").order_by("-created_at")


def witness_conversations(*, user):
    return Conversation.objects.filter(witness_human=user).select_related("interrogation").order_by("-id")


def published_interrogations():
    return Interrogation.objects.filter(published_at__isnull=False, rehearsal=False).order_by("-published_at")


def published_interrogation(*, public_id) -> Interrogation | None:
    return published_interrogations().filter(public_id=public_id).select_related("verdict", "judge").first()


def transcript_export(*, interrogation: Interrogation) -> dict:
    """A published interrogation as JSON-ready data; witnesses anonymised unless published with names."""
    names = interrogation.published_with_names
    verdict = Verdict.objects.filter(interrogation=interrogation).first()
    conversations = []
    for c in interrogation.conversations.select_related("witness_entry", "witness_human").order_by("side"):
        seal = conversation_seal(conversation=c, interrogation=interrogation)
        conversations.append(
            {
                "id": str(c.public_id),
                "side": c.side,
                "witness_kind": "machine" if c.witness_is_machine else "human",
                "witness": c.witness_label if names else None,
                "engine": c.witness_entry.engine if (names and c.witness_is_machine) else None,
                "messages": [
                    {
                        "seq": m.seq,
                        "from": m.sender_role,
                        "text": m.text,
                        "at": payloads.iso(m.created_at),
                        "prev_hash": m.prev_hash,
                        "hash": m.hash,
                    }
                    for m in c.messages.order_by("seq")
                ],
                "seal": seal.as_dict() if seal else None,
            }
        )
    return {
        "id": str(interrogation.public_id),
        "title": interrogation.title,
        "kind": interrogation.kind,
        "judge": interrogation.judge.get_username() if names else None,
        "started_at": payloads.iso(interrogation.started_at),
        "ended_at": payloads.iso(interrogation.ended_at),
        "end_reason": interrogation.end_reason,
        "time_limit_s": interrogation.time_limit_s,
        "verdict": None
        if verdict is None
        else {
            "choice": verdict.choice,
            "confidence": verdict.confidence,
            "reason": verdict.reason,
            "correct": verdict.correct,
            "time_to_decision_s": verdict.time_to_decision_s,
        },
        "conversations": conversations,
        # convenience copies: trust the keys published at /transcripts/keys.json, not these
        "signing_keys": signing.public_keys_document()["keys"],
        "verify": signing.VERIFY_HOW,
    }


def conversation_seal(*, conversation: Conversation, interrogation: Interrogation) -> hashchain.Seal | None:
    row = ConversationSeal.objects.filter(conversation=conversation).first()
    if row is None:
        return None
    return hashchain.Seal(
        conversation=str(conversation.public_id), interrogation=str(interrogation.public_id),
        count=row.message_count, head=row.head_hash, ended_at=hashchain.stamp(row.ended_at), key_id=row.key_id,
        signature=row.signature, version=row.version)


def transcript_conversations(*, reference: str) -> list[Conversation]:
    """The conversations a reader names: a conversation id (a number), a conversation's public id, or an
    interrogation's public id (what a transcript's URL shows: all its conversations), or that URL itself."""
    reference = reference.strip()
    if reference.isdigit():
        found = Conversation.objects.filter(pk=int(reference))
    else:
        match = _UUID.search(reference)
        if match is None:
            return []
        public_id = uuid.UUID(match.group())
        found = Conversation.objects.filter(Q(public_id=public_id) | Q(interrogation__public_id=public_id))
    return list(found.select_related("interrogation").order_by("side"))


def conversation_verify(*, conversation: Conversation) -> hashchain.SealReport:
    """The conversation's chain recomputed from the database and checked against its signed seal, with the
    platform's public keys (the current one and the retired ones)."""
    interrogation = conversation.interrogation
    report = hashchain.seal_verify(
        conversation_public_id=conversation.public_id, messages=conversation.messages.order_by("seq"),
        seal=conversation_seal(conversation=conversation, interrogation=interrogation),
        public_keys=signing.public_keys(), interrogation_public_id=interrogation.public_id,
        ended_at=interrogation.ended_at)
    if report.verdict != "UNSEALED":
        return report
    if interrogation.status in (Status.SCHEDULED, Status.RUNNING):
        problem = f"no seal (interrogation still {interrogation.status}); {report.chain.checked} messages so far"
    else:
        problem = (f"no seal: the interrogation ended at {payloads.iso(interrogation.ended_at)} but nothing proves "
                   f"where its transcript ends (its seal was removed, or it ended before transcripts were sealed)")
    return dataclasses.replace(report, problem=problem)


def can_monitor(user) -> bool:
    return user.is_authenticated and (user.is_staff or roles.is_organiser(user))


# --- results: verdicts as battles, pass rates, judges (the statistics are arena.stats) -------------------
#
# Who plays whom.  Each three-party verdict is a battle between its two witnesses: the one the judge
# picked as the human wins.  Human witnesses are pooled as one player, "human" (Jones & Bergen report
# "humans" as one witness type beside each AI witness; Chatbot Arena rates systems, not the people who
# happen to face them), so an entry's rating is its strength against the platform's confederates as a
# whole.  `pool_humans=False` rates each confederate as "human:<username>" instead, to see whether one
# confederate is much easier to tell from the machines than another.  A three-party verdict between two
# witnesses that are the same player (two pooled humans, or one entry twice) is no battle: it says
# nothing about anyone's strength.  A one-to-one verdict on an entry is a battle against the pooled
# human baseline ("human"): judged human, the entry wins; judged a machine, "human" wins.  One-to-one
# verdicts on human witnesses are no battles (a player cannot play itself); they give the human
# baseline's own pass rate in `entry_pass_rates`.  Verdicts have no ties (the command's input may).

HUMAN = "human"


def _player(conversation: Conversation, *, pool_humans: bool) -> str:
    if conversation.witness_entry_id:
        name = conversation.witness_entry.display_name
        return f"{name} (entry)" if name == HUMAN or name.startswith(HUMAN + ":") else name
    return HUMAN if pool_humans else f"{HUMAN}:{conversation.witness_human.get_username()}"


def _verdicts(kind: str | None = None):
    verdicts = Verdict.objects.filter(interrogation__rehearsal=False).select_related("interrogation", "judge").prefetch_related(
        Prefetch("interrogation__conversations",
                 queryset=Conversation.objects.select_related("witness_entry", "witness_human"))
    ).order_by("decided_at", "pk")
    return verdicts.filter(interrogation__kind=kind) if kind else verdicts


@dataclass
class VerdictBattles:
    """The platform's verdicts as battles (arena.stats.Battles, in order of decision), with the judge
    (user id) and the verdict id of each battle."""

    battles: stats.Battles
    judges: list
    verdicts: list


def verdict_battles(*, pool_humans: bool = True, kind: str | None = None,
                    cap_per_judge_day: int | None = None) -> VerdictBattles:
    """Every verdict that is a battle (see above), oldest first; `kind` keeps one interrogation kind;
    `cap_per_judge_day` keeps only each judge's first that many battles of each (UTC) day
    (arena.stats.votes_cap, Chatbot Arena's vote cap)."""
    records, judges, ids, days = [], [], [], []
    for verdict in _verdicts(kind):
        by_side = {c.side: c for c in verdict.interrogation.conversations.all()}
        if verdict.interrogation.kind == Interrogation.Kind.THREE_PARTY:
            if "left" not in by_side or "right" not in by_side:
                continue
            first, second = (_player(by_side[s], pool_humans=pool_humans) for s in ("left", "right"))
            winner = "a" if verdict.choice == Verdict.Choice.LEFT else "b"
        else:
            sole = by_side.get("sole")
            if sole is None or not sole.witness_is_machine:
                continue
            first, second = _player(sole, pool_humans=pool_humans), HUMAN
            winner = "a" if verdict.choice == Verdict.Choice.HUMAN else "b"
        if first == second:
            continue
        records.append({"a": first, "b": second, "winner": winner})
        judges.append(verdict.judge_id)
        ids.append(verdict.pk)
        days.append(verdict.decided_at.date())
    battles = stats.battles_from_records(records)
    if cap_per_judge_day is not None:
        keep = stats.votes_cap(judges, days, cap=cap_per_judge_day)
        battles = battles.subset(keep)
        judges = [j for j, k in zip(judges, keep) if k]
        ids = [v for v, k in zip(ids, keep) if k]
    return VerdictBattles(battles=battles, judges=judges, verdicts=ids)


def verdict_ratings(*, replicates: int = 1000, seed=None, anchor: tuple[str, float] | None = None,
                    pool_humans: bool = True, kind: str | None = None, cap_per_judge_day: int | None = None,
                    progress=None) -> stats.RatingTable:
    """Bradley–Terry ratings of every witness from the verdicts (both kinds of interrogation on one scale
    unless `kind` is given), with bootstrap intervals."""
    data = verdict_battles(pool_humans=pool_humans, kind=kind, cap_per_judge_day=cap_per_judge_day)
    return stats.ratings_compute(data.battles, replicates=replicates, seed=seed, anchor=anchor, progress=progress)


def entry_pass_rates(*, kind: str = Interrogation.Kind.THREE_PARTY, level: float = 0.95) -> list[dict]:
    """Per entry, how often it was judged human in interrogations of `kind`, with n, the Wilson interval
    and the exact test against 50 %; first, the human witnesses' own rate measured the same way (pooled:
    every confederate's conversations), the baseline Jones & Bergen set each AI witness against.
    Three-party: a witness is judged human when the judge picks its side; one-to-one: when the verdict is
    "human"."""
    tally: dict[str, list[int]] = {HUMAN: [0, 0]}
    machine: dict[str, bool] = {HUMAN: False}
    for verdict in _verdicts(kind):
        for conversation in verdict.interrogation.conversations.all():
            name = _player(conversation, pool_humans=True)
            judged_human = (verdict.choice == conversation.side if conversation.side != Conversation.Side.SOLE
                            else verdict.choice == Verdict.Choice.HUMAN)
            counts = tally.setdefault(name, [0, 0])
            counts[0] += int(judged_human)
            counts[1] += 1
            machine[name] = conversation.witness_is_machine
    rows = []
    for name, (k, n) in tally.items():
        estimate = stats.proportion_estimate(k, n, level=level)
        rows.append({"name": name, "witness_kind": "machine" if machine[name] else "human",
                     "baseline": name == HUMAN, "judged_human": k, **estimate.as_dict()})
    rows.sort(key=lambda r: (not r["baseline"], -(r["rate"] if r["rate"] is not None else -1.0), r["name"]))
    return rows


def judge_accuracies(*, level: float = 0.95, alpha: float = 0.05) -> list[dict]:
    """Per judge: verdicts right of n with the Wilson interval and the exact test against 50 % (guessing),
    and the sequential outlier test of arena.stats.judge_outliers on the judge's battles against the
    consensus of the other judges (`outlier` once its e-value reaches 1/alpha).  For organisers only."""
    tally: dict[int, list] = {}
    for verdict in _verdicts():
        row = tally.setdefault(verdict.judge_id, [verdict.judge.get_username(), 0, 0])
        row[1] += int(verdict.correct)
        row[2] += 1
    data = verdict_battles()
    tests = {t.judge: t for t in stats.judge_outliers(data.battles, data.judges, alpha=alpha)}
    rows = []
    for judge_id, (username, k, n) in tally.items():
        test = tests.get(judge_id)
        rows.append({"judge": username, "correct": k, **stats.proportion_estimate(k, n, level=level).as_dict(),
                     "battles": test.votes if test else 0, "e_value": test.e_value if test else 1.0,
                     "outlier": bool(test and test.flagged), "flagged_at": test.flagged_at if test else None})
    rows.sort(key=lambda r: (-r["e_value"], r["judge"]))
    return rows


# --- the results pages: computed once per state of the verdicts, not on every request ----------------------

RESULTS_REPLICATES = 1000
RESULTS_SEED = 0  # a fixed seed: the intervals do not wobble from one recomputation to the next
RESULTS_CACHE_S = 24 * 3600


def _verdicts_version() -> str:
    """Changes whenever a verdict is added or removed (verdicts are never edited)."""
    state = Verdict.objects.aggregate(n=Count("pk"), last=Max("pk"))
    return f"{state['n']}-{state['last']}"


def _cached(name: str, compute):
    key = f"arena:results:{name}:{_verdicts_version()}"
    value = cache.get(key)
    if value is None:
        value = compute()
        cache.set(key, value, RESULTS_CACHE_S)
    return value


def results_public() -> dict:
    """The public leaderboard: Bradley–Terry ratings with bootstrap intervals (humans pooled), the battle
    counts and win fractions between witnesses, and every entry's pass rate with n and CI beside the human
    baseline, per interrogation kind.  Cached until the next verdict."""
    def compute():
        table = verdict_ratings(replicates=RESULTS_REPLICATES, seed=RESULTS_SEED)
        ratings = [r.as_dict() for r in table.ratings]
        order = [table.names.index(r["name"]) for r in ratings]
        fraction = [[table.win_fraction[i][j] for j in order] for i in order]
        count = [[table.battle_count[i][j] for j in order] for i in order]
        return {
            "ratings": ratings, "notes": table.notes, "level": table.level, "replicates": table.replicates,
            "battles": int(table.battle_count.sum() // 2),
            "ci_plot": charts.ci_plot(ratings), "heat_map": charts.heat_map([r["name"] for r in ratings], fraction, count),
            "pass_rates": {kind: entry_pass_rates(kind=kind) for kind in Interrogation.Kind.values},
        }
    return _cached("public", compute)


def results_judges() -> list[dict]:
    """Organisers only: judge_accuracies, cached until the next verdict."""
    return _cached("judges", judge_accuracies)
