"""Turing Trade's business logic (writes). Views, consumers, tasks and commands call these only."""

from markets.conversation.services import (
    trade_refusal,
    xmarket_open,
    xmarket_sync,
    xmarket_trade,
    xmarkets_ensure,
    xmarkets_sweep,
)
from markets.services.games import (
    game_create,
    game_join,
    game_open,
    game_settle,
    game_start,
    game_void,
    games_sweep,
)
from markets.services.ledger import InsufficientPoints, ledger_post
from markets.services.questions import answer_release, answer_submit, question_ask
from markets.services.target import target_reply_compose, target_reply_deliver
from markets.services.trading import trade_place
