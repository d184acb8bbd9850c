"""Thin websocket consumers for Turing Trade, on core.consumers.BaseConsumer (JSON frames, error frames).

Bettor: ask, buy/sell, state. Target (a human): answer, state. Spectator: state only. Each joins only
the groups it may hear: a bettor's private group carries its queue and its own answers' texts.
"""

from channels.db import database_sync_to_async

from core.consumers import BaseConsumer
from core.errors import NotAllowed
from markets import groups, payloads, selectors, services


class GameConsumer(BaseConsumer):
    def authorise(self):
        self.game = selectors.game_by_public_id(public_id=self.scope["url_route"]["kwargs"]["public_id"])


class BettorConsumer(GameConsumer):
    actions = {"state": "on_state", "ask": "on_ask", "trade": "on_trade"}

    def authorise(self):
        super().authorise()
        self.participant = selectors.participant_for(game=self.game, user=self.scope["user"])
        if self.participant is None:
            raise NotAllowed("You are not a bettor of this game.")

    def groups_to_join(self):
        return [groups.bettors_group(self.game.pk), groups.bettor_group(self.participant.pk)]

    def state(self):
        return selectors.bettor_state(game=self.game, participant=self.participant)

    async def on_ask(self, frame):
        await database_sync_to_async(services.question_ask)(
            game_id=self.game.pk, user=self.scope["user"], text=frame.get("text")
        )

    async def on_trade(self, frame):
        await database_sync_to_async(services.trade_place)(
            game_id=self.game.pk,
            user=self.scope["user"],
            action=frame.get("action"),
            security=frame.get("security"),
            key=frame.get("key"),
        )


class TargetConsumer(GameConsumer):
    actions = {"state": "on_state", "answer": "on_answer"}

    def authorise(self):
        super().authorise()
        if not selectors.is_target(game=self.game, user=self.scope["user"]):
            raise NotAllowed("You are not this game's target.")

    def groups_to_join(self):
        return [groups.target_group(self.game.pk)]

    def state(self):
        return selectors.target_state(game=self.game)

    async def on_answer(self, frame):
        await database_sync_to_async(services.answer_submit)(
            game_id=self.game.pk, question_id=frame.get("question"), text=frame.get("text"), user=self.scope["user"]
        )


class SpectatorConsumer(GameConsumer):
    def groups_to_join(self):
        return [groups.spectators_group(self.game.pk)]

    def state(self):
        return selectors.bettor_state(game=self.game, participant=None)


class ConversationMarketConsumer(BaseConsumer):
    """A spectator of a conversation market: the arena's delayed feed (released messages only), the
    market's prices, and trades (refused in the service for anyone in the conversation)."""

    actions = {"state": "on_state", "trade": "on_trade"}

    def authorise(self):
        from markets.conversation.selectors import xmarket_by_public_id, xmarket_viewer_check

        self.cm = xmarket_by_public_id(public_id=self.scope["url_route"]["kwargs"]["public_id"])
        xmarket_viewer_check(cm=self.cm, user=self.scope["user"])

    def groups_to_join(self):
        from arena import groups as arena_groups

        return [arena_groups.spectators_group(self.cm.interrogation_id), groups.spectators_group(self.cm.game_id)]

    def state(self):
        from markets.conversation.selectors import xmarket_state

        return xmarket_state(cm=self.cm, user=self.scope["user"])

    def trade(self, frame) -> dict:
        trade = services.xmarket_trade(
            market_id=self.cm.pk,
            user=self.scope["user"],
            action=frame.get("action"),
            security=frame.get("security"),
            key=frame.get("key"),
        )
        participant = trade.participant
        return payloads.me_event(participant, participant.account.balance)

    async def on_trade(self, frame):
        await self.send_json(await database_sync_to_async(self.trade)(frame))
