"""What an agent is shown: the game's rules, the shared transcript (openings and accepted votes; a
penalised reply is never passed on, only the note that it was penalised), the state and the prompt.

A task keeps its game's :class:`Table` from turn to turn: the configuration and agents read once, the
transcript read once (two queries) and then extended by each turn it plays, and the earlier messages
processed once for the repetition and plagiarism checks."""

from dataclasses import dataclass, field

from tables.models import Agent, Call, Game, Turn
from tables.rules import prompts
from tables.rules.similarity import Earlier


def turn_items(
    number: int,
    *,
    said: tuple[str, str, str] | None = None,
    voted: tuple[str, str] | None = None,
    penalised: tuple[str, str] | None = None,
) -> list[dict]:
    """The public record of one turn: what was said (author, text, reason) and, for a vote, the voter and
    its target; or the note of a penalty (agent, rule)."""
    items = []
    if said:
        author, text, reason = said
        items.append({"kind": "said", "author": author, "text": text, "reason": reason, "turn": number})
    if voted:
        voter, target = voted
        items.append({"kind": "note", "author": "", "text": f"{voter} voted against {target}.", "turn": number})
    if penalised:
        agent, rule = penalised
        items.append(
            {
                "kind": "note",
                "author": "",
                "turn": number,
                "text": f"{agent} was penalised ({rule}); its reply was withdrawn.",
            }
        )
    return items


def transcript(*, game, before: int, agents: dict[str, Agent] | None = None) -> list[dict]:
    """The public record of turns ``< before`` in order: {"kind": "said"|"note", "author", "text", "reason"}.
    Two queries: the turns with their vote (and its call) or penalty, and the opening statements."""
    if before <= 0:
        return []
    agents = agents or {a.name: a for a in Agent.objects.filter(game=game)}
    name = {a.pk: a.name for a in agents.values()}
    openings = dict(
        Call.objects.filter(
            turn__game=game,
            turn__number__lt=min(before, len(game.order)),
            role__in=(Call.Role.OPENING, Call.Role.CORRECTION),  # an opening, or its correction
            ok=True,
            penalised=False,
        ).values_list("turn__number", "text")
    )
    turns = (
        Turn.objects.filter(game=game, number__lt=before)
        .order_by("number")
        .select_related("vote__call", "penalty")
        .defer("vote__call__prompt", "vote__call__raw")
    )
    items = []
    for turn in turns:
        vote, penalty = getattr(turn, "vote", None), getattr(turn, "penalty", None)
        if turn.number in openings:
            text = openings[turn.number]
            items += turn_items(turn.number, said=(name[turn.agent_id], text, text))
        elif vote is not None and vote.call.ok and not vote.call.penalised:
            items += turn_items(
                turn.number,
                said=(name[vote.call.agent_id], vote.call.text, vote.reason),
                voted=(name[vote.voter_id], name[vote.target_id]),
            )
        if penalty is not None:
            items += turn_items(turn.number, penalised=(name[penalty.agent_id], penalty.rule))
    return items


@dataclass
class Table:
    """What a task knows of its game between turns: the game (as of its last turn's end), the agents
    with their counters, the transcript of the turns before ``number`` and its messages processed."""

    game: Game
    agents: dict[str, Agent]
    number: int
    items: list[dict] = field(default_factory=list)
    earlier: Earlier = field(default_factory=Earlier)  # (author, text) of every message said, for the checks
    said: dict[str, list[str]] = field(default_factory=dict)  # each agent's messages (coherence)
    claimed: Turn | None = None  # turn ``number``, claimed by the previous turn's outcome for this task

    def extend(self, items: list[dict]) -> None:
        self.items.extend(items)
        for item in items:
            if item["kind"] == "said":
                self.earlier.add(item["author"], item["reason"])
                self.said.setdefault(item["author"], []).append(item["reason"])

    def tally(self) -> dict[str, int]:
        """Votes against each agent (peer votes and penalties), in turn order, from its counters."""
        return {name: self.agents[name].received_count + self.agents[name].penalties_count for name in self.game.order}


def table_load(*, game_id: int, number: int, resume: bool = False) -> Table | None:
    """The game's table before turn ``number``; None unless the game is running and at that turn
    (``resume``: or past it, then before its current turn)."""
    game = Game.objects.select_related("judge").filter(pk=game_id).first()
    if game is None or game.status != Game.Status.RUNNING:
        return None
    if resume and number < game.turns_played:
        number = game.turns_played
    if number != game.turns_played:
        return None
    agents = {a.name: a for a in Agent.objects.filter(game=game).select_related("entry")}
    table = Table(game=game, agents=agents, number=number)
    table.extend(transcript(game=game, before=number, agents=agents))
    return table


def history_messages(*, name: str, items: list[dict]) -> list[dict]:
    out = []
    for item in items:
        if item["kind"] == "note":
            out.append({"role": "user", "content": f"[Game] {item['text']}"})
        elif item["author"] == name:
            out.append({"role": "user", "content": f"You, {name}, said: {item['text']}"})
        else:
            out.append({"role": "user", "content": f"{item['author']} says: {item['text']}"})
    return out


def opening_messages(*, game, name: str, items: list[dict]) -> list[dict]:
    names = list(game.order)
    return [
        {"role": "system", "content": prompts.system_prompt(name=name, names=names, end_votes=game.end_votes)},
        *history_messages(name=name, items=items),
        {"role": "user", "content": prompts.opening_prompt(name=name, names=names)},
    ]


def vote_messages(*, game, name: str, items: list[dict], number: int, tally: dict[str, int]) -> list[dict]:
    names = list(game.order)
    return [
        {"role": "system", "content": prompts.system_prompt(name=name, names=names, end_votes=game.end_votes)},
        *history_messages(name=name, items=items),
        {"role": "user", "content": prompts.state_message(turn=number, tally=tally)},
        {"role": "user", "content": prompts.vote_prompt(name=name, names=names)},
    ]
