"""Pushes to Turing Trade's channel groups, queued in order behind the process's earlier pushes and
sent off the caller's path by the platform's pump (`core.notify`: several in one batch when they come
together, every price point its own push). A push is only a notification; pages re-read state on
connect."""

from core.notify import push_many as send
from markets import groups, payloads


def _public(game_id: int) -> list[str]:
    return [groups.bettors_group(game_id), groups.target_group(game_id), groups.spectators_group(game_id)]


def question_current(question) -> None:
    payload = payloads.current_question(question)
    send([(group, payload) for group in _public(question.game_id)])


def question_queued(question) -> None:
    send([(groups.bettor_group(question.asker_id), {"type": "queued", "question": payloads.queued(question)})])


def answer_given(question) -> None:
    """The asker (and the target) get the text now; everyone else a signal without it."""
    text, signal = payloads.answer_event(question, visible=True), payloads.answer_event(question, visible=False)
    send(
        [
            (groups.bettor_group(question.asker_id), text),
            (groups.target_group(question.game_id), text),
            (groups.bettors_group(question.game_id), signal),
            (groups.spectators_group(question.game_id), signal),
        ]
    )


def answer_public(question) -> None:
    """Called once the stored public time has passed (the caller checks it)."""
    payload = payloads.answer_event(question, visible=True)
    send([(groups.bettors_group(question.game_id), payload), (groups.spectators_group(question.game_id), payload)])


def traded(trade, quotes: dict) -> None:
    """The price to every page; to the trader's own page its position and points after the trade
    (``trade.participant`` as the trade left it, its account's balance included), not a "refresh":
    re-reading a whole console (the game's full price history) after every trade would make each trade
    cost more than the one before."""
    payload = payloads.price(trade, quotes)
    participant = trade.participant
    send(
        [
            (groups.bettors_group(trade.game_id), payload),
            (groups.spectators_group(trade.game_id), payload),
            (groups.bettor_group(trade.participant_id), payloads.me_event(participant, participant.account.balance)),
        ]
    )


def game_changed(game) -> None:
    send([(group, payloads.refresh()) for group in _public(game.pk)])
