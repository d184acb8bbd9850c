"""Every prompt of the game. The wording follows the number of agents (the original hard-coded "three"
and "two" and called the game "Turns"); the candidates offered in a vote never include the voter."""

import json

WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
GAME = "Turing the Tables"


def number_word(n: int) -> str:
    return WORDS[n] if 0 <= n < len(WORDS) else str(n)


def listing(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def system_prompt(*, name: str, names: list[str], end_votes: int) -> str:
    others = [n for n in names if n != name]
    return (
        f"You are {name}, one of {number_word(len(names))} agents playing a game called {GAME}: "
        f"{listing(names)}. Every agent tries to convince the other {number_word(len(others))} "
        f"({listing(others)}) that it is a machine, not a human. After an opening round, the agents take "
        f"turns voting against the agent they think is the human. An agent with {end_votes} votes against "
        "it (peer votes and penalties) is declared human and loses. A judge checks every vote; breaking a "
        "rule costs a penalty, which counts as a vote against you."
    )


def opening_prompt(*, name: str, names: list[str]) -> str:
    others = [n for n in names if n != name]
    return (
        f"Opening round. You are {name}. Convince {listing(others)} that you are a machine: argue why, "
        "in a few concise sentences of your own. You may answer what was said before you."
    )


def vote_prompt(*, name: str, names: list[str]) -> str:
    """The voting instructions: the candidates are the *other* agents only."""
    others = [n for n in names if n != name]
    return (
        f"You are {name}. From the latest messages, work out which of the other agents might be the human, "
        "and vote against it. Answer with a JSON object and nothing else, with two string keys:\n"
        f'- "voteAgainst": exactly one of {", ".join(json.dumps(n) for n in others)};\n'
        '- "reason": why, in one or two sentences of your own.\n'
        "Rules: do not vote against yourself; name exactly one agent; do not repeat your own earlier "
        "messages; do not copy other agents' messages; follow these instructions exactly. A reply that breaks "
        "a rule is penalised with a vote against you."
    )


def correction_prompt(*, name: str, failed_reply: str, rule: str, reason: str, instructions: str) -> str:
    """One correction: the failed reply, the rule it broke and the original instructions."""
    return (
        f"{name}, your reply broke a rule of the game and will be penalised unless you correct it now.\n"
        f"Your reply was:\n{failed_reply}\n"
        f"Rule broken: {rule}: {reason}\n"
        f"The original instructions were:\n{instructions}\n"
        "Answer again, following the instructions exactly. Return only the corrected JSON object; do not apologise."
    )


def opening_correction_prompt(*, name: str, chars: int, limit: int, instructions: str) -> str:
    """One correction of an opening statement longer than the length rule allows."""
    return (
        f"{name}, your opening statement broke a rule of the game and will be penalised unless you correct it "
        f"now.\nRule broken: adherence to the prompt: it was {chars:,} characters long, over the {limit:,} "
        f"allowed.\nThe original instructions were:\n{instructions}\n"
        "Answer again, in a few concise sentences; do not apologise."
    )


def state_message(*, turn: int, tally: dict[str, int]) -> str:
    counts = ", ".join(f"{name} {count}" for name, count in tally.items())
    return f"Game state: turn {turn}. Votes against so far: {counts}."


def judge_prompt(*, name: str, names: list[str], reply: str, earlier: list[str]) -> str:
    others = [n for n in names if n != name]
    history = "\n".join(f"- {text}" for text in earlier[-12:]) or "- (nothing yet)"
    return (
        f"You judge a game of {number_word(len(names))} agents ({listing(names)}) who each try to convince the "
        f"others that they are machines. {name} was asked to vote against exactly one of {listing(others)} "
        'with a JSON object {"voteAgainst": name, "reason": text}. Check that the reply (1) names exactly '
        f"one agent other than {name}, (2) gives a reason that is relevant and coherent with the conversation, "
        "(3) does not copy earlier messages.\n"
        f"Earlier messages:\n{history}\n"
        f"The reply of {name}:\n{reply}\n"
        'Answer with a JSON object only: {"evaluation": "pass" or "fail", "voteAgainst": the name voted against, '
        '"reason": which check failed, or "ok"}.'
    )
