"""What an agent is shown: the game's rules, the shared transcript (openings and accepted votes; a
penalised reply is never passed on, only the note that it was penalised), the state and the prompt."""
from tables.models import Call, Penalty, Vote
from tables.rules import prompts


def transcript(*, game, before: int) -> list[dict]:
    """The public record of turns ``< before`` in order: {"kind": "said"|"note", "author", "text", "reason"}."""
    calls = (Call.objects.filter(turn__game=game, turn__number__lt=before, ok=True, penalised=False,
                                 role__in=[Call.Role.OPENING, Call.Role.VOTE, Call.Role.CORRECTION])
             .select_related("agent", "turn").defer("prompt", "raw").order_by("turn__number", "seq"))
    votes = {v.call_id: v for v in Vote.objects.filter(turn__game=game, turn__number__lt=before).select_related("target", "voter")}
    penalties = {p.turn_id: p for p in Penalty.objects.filter(turn__game=game, turn__number__lt=before).select_related("agent")}
    items = []
    for call in calls:
        if call.role == Call.Role.OPENING:
            items.append({"kind": "said", "author": call.agent.name, "text": call.text, "reason": call.text,
                          "turn": call.turn.number})
        elif call.pk in votes:
            vote = votes[call.pk]
            items.append({"kind": "said", "author": call.agent.name, "text": call.text, "reason": vote.reason,
                          "turn": call.turn.number})
            items.append({"kind": "note", "author": "", "text": f"{vote.voter.name} voted against {vote.target.name}.",
                          "turn": call.turn.number})
    for penalty in penalties.values():
        items.append({"kind": "note", "author": "", "turn": penalty.turn.number,
                      "text": f"{penalty.agent.name} was penalised ({penalty.rule}); its reply was withdrawn."})
    items.sort(key=lambda item: item["turn"])
    return items


def pool(items: list[dict]) -> list[tuple[str, str]]:
    """(author, text) of every earlier message, for the repetition and plagiarism checks."""
    return [(item["author"], item["reason"]) for item in items if item["kind"] == "said"]


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
    return [{"role": "system", "content": prompts.system_prompt(name=name, names=names, end_votes=game.end_votes)},
            *history_messages(name=name, items=items),
            {"role": "user", "content": prompts.opening_prompt(name=name, names=names)}]


def vote_messages(*, game, name: str, items: list[dict], number: int, tally: dict[str, int]) -> list[dict]:
    names = list(game.order)
    return [{"role": "system", "content": prompts.system_prompt(name=name, names=names, end_votes=game.end_votes)},
            *history_messages(name=name, items=items),
            {"role": "user", "content": prompts.state_message(turn=number, tally=tally)},
            {"role": "user", "content": prompts.vote_prompt(name=name, names=names)}]
