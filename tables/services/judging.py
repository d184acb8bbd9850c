"""Judging one reply: the functional judge always, the LLM judge in addition when the game has one.
Both verdicts are stored; the stricter decides. A judge that answers garbage (or nothing) is recorded as
such and decides nothing: the turn goes on on the functional verdict.

Nothing is written here: the rows (the judge's call, the verdicts) are added to the turn's ``rows``,
which the turn writes with its outcome, in one transaction."""

from dataclasses import dataclass

from django.utils import timezone

from arena.services.engines import engine_chat
from tables.models import Call, Verdict
from tables.rules import prompts
from tables.rules.judge import judge_parse
from tables.rules.similarity import Earlier, Thresholds, copies_find
from tables.rules.votes import ADHERENCE, LLM_JUDGE, RULES, Vote, vote_parse

MAX_REASON_CHARS = 600


@dataclass
class Decision:
    passed: bool
    vote: Vote
    rule: str = ""
    reason: str = ""
    copied: bool = False
    judge_ms: float = 0.0  # time spent waiting for the LLM judge


def rule_text(rule: str) -> str:
    return RULES.get(rule, rule)


def call_build(*, turn, agent, role: str, seq: int, messages: list[dict], reply) -> Call:
    """The row of one gateway call (``reply``: an ``engine_chat`` answer), stamped now, not yet saved;
    ``waited_ms`` (not stored) is the call's exact latency, which the turn subtracts from its time
    (``latency_ms``, stored, is whole milliseconds)."""
    call = Call(
        turn=turn,
        agent=agent,
        role=role,
        seq=seq,
        prompt=messages,
        text=reply.text,
        raw=reply.raw,
        ok=reply.ok,
        error=reply.error,
        attempts=reply.attempts,
        latency_ms=reply.latency_ms,
        tokens_in=reply.tokens_in,
        tokens_out=reply.tokens_out,
        created_at=timezone.now(),
    )
    call.waited_ms = reply.latency_exact_ms or reply.latency_ms
    # not stored: the reply's whole length when the engine cut it (a reply over the length rule)
    call.cut_from = getattr(reply, "cut_from", 0)
    return call


def reply_judge(
    *, game, turn, agent, call: Call, names: list[str], earlier: Earlier, seq: int, rows: list, chat=engine_chat
) -> Decision:
    """Judge ``call`` (an agent's vote or correction) against the earlier messages (accepted votes' reasons
    and opening statements, never the failed original); the judge's call and the verdicts go to ``rows``."""
    vote = vote_parse(text=call.text, voter=agent.name, names=names, max_reason_chars=MAX_REASON_CHARS)
    cut_from = getattr(call, "cut_from", 0)
    if cut_from:  # an over-long reply breaks the length rule: never read from its cut head and accepted
        limit = agent.entry.settings.get("max_reply_chars", len(call.text))
        vote = Vote(
            None,
            "",
            vote.form,
            ADHERENCE,
            f"the reply is {cut_from:,} characters long, over the {limit:,} a reply may have "
            f"(a vote's reason: at most {MAX_REASON_CHARS})",
        )
    thresholds = Thresholds(game.similarity_threshold, game.partial_threshold)
    rule, detail, similarity, copied = vote.rule, vote.detail, None, False
    if vote.ok:
        match = copies_find(text=vote.reason, author=agent.name, earlier=earlier, thresholds=thresholds)
        similarity = round(match.score, 4)
        if match.rule:
            copied = True
            whose = "your own earlier message" if match.author == agent.name else f"{match.author}'s message"
            rule, detail = match.rule, f"the reason is {similarity:.0%} similar to {whose}: {match.text[:160]!r}"
    rows.append(
        Verdict(
            call=call,
            judge=Verdict.Judge.FUNCTIONAL,
            passed=not rule,
            rule=rule,
            reason=detail,
            target=vote.target or "",
            form=vote.form,
            similarity=similarity,
        )
    )
    decision = Decision(not rule, vote, rule, detail, copied)
    if game.judge_id:
        said = [f"{who}: {text}" for who, text in earlier]
        prompt = [
            {
                "role": "user",
                "content": prompts.judge_prompt(name=agent.name, names=names, reply=call.text, earlier=said),
            }
        ]
        reply = chat(
            entry=game.judge,
            messages=prompt,
            subject=f"tables game {game.pk} turn {turn.number} judge",
            json_mode=True,
            flush=False,
        )  # the turn's outcome, committed after, makes the call's log durable
        judge_call = call_build(turn=turn, agent=None, role=Call.Role.JUDGE, seq=seq, messages=prompt, reply=reply)
        if reply.ok:
            answer = judge_parse(reply.text)
            passed, target, reason = answer.passed, answer.vote_against, answer.reason
        else:
            passed, target, reason = None, "", f"the judge gave no answer: {reply.error}"
        decision.judge_ms = judge_call.waited_ms
        rows += [
            judge_call,
            Verdict(
                call=call,
                judge=Verdict.Judge.LLM,
                judge_call=judge_call,
                passed=passed,
                rule="" if passed is not False else LLM_JUDGE,
                reason=reason,
                target=target,
            ),
        ]
        if passed is False and decision.passed:  # the stricter decides
            decision.passed, decision.rule = False, LLM_JUDGE
            decision.reason = f"the LLM judge failed the reply: {reason or 'no reason given'}"
    return decision
