"""Pushes to Turing Trade's channel groups, through arena's push (the same loop handling)."""
from arena.notify import push

from markets import groups, payloads


def question_current(question) -> None:
    payload = payloads.current_question(question)
    for group in (groups.bettors_group(question.game_id), groups.target_group(question.game_id),
                  groups.spectators_group(question.game_id)):
        push(group, payload)


def question_queued(question) -> None:
    push(groups.bettor_group(question.asker_id), {"type": "queued", "question": payloads.queued(question)})


def answer_given(question) -> None:
    """The asker (and the target) get the text now; everyone else a signal without it."""
    push(groups.bettor_group(question.asker_id), payloads.answer_event(question, visible=True))
    push(groups.target_group(question.game_id), payloads.answer_event(question, visible=True))
    signal = payloads.answer_event(question, visible=False)
    push(groups.bettors_group(question.game_id), signal)
    push(groups.spectators_group(question.game_id), signal)


def answer_public(question) -> None:
    """Called once the stored public time has passed (the caller checks it)."""
    payload = payloads.answer_event(question, visible=True)
    push(groups.bettors_group(question.game_id), payload)
    push(groups.spectators_group(question.game_id), payload)


def traded(trade, quotes: dict) -> None:
    payload = payloads.price(trade, quotes)
    push(groups.bettors_group(trade.game_id), payload)
    push(groups.spectators_group(trade.game_id), payload)
    push(groups.bettor_group(trade.participant_id), payloads.refresh())


def game_changed(game) -> None:
    for group in (groups.bettors_group(game.pk), groups.target_group(game.pk), groups.spectators_group(game.pk)):
        push(group, payloads.refresh())
