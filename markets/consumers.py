"""Thin websocket consumers for Turing Trade, on core.consumers.BaseConsumer (JSON frames, error frames).

Bettor: ask, buy/sell, state. Target (a human): answer, state. Spectator: state only. Each joins only
the groups it may hear: a bettor's private group carries its queue and its own answers' texts.
"""
from channels.db import database_sync_to_async

from core.consumers import BaseConsumer
from core.errors import NotAllowed
from markets import groups, selectors, services


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
        await database_sync_to_async(services.question_ask)(game_id=self.game.pk, user=self.scope["user"], text=frame.get("text"))

    async def on_trade(self, frame):
        await database_sync_to_async(services.trade_place)(
            game_id=self.game.pk, user=self.scope["user"], action=frame.get("action"),
            security=frame.get("security"), key=frame.get("key"),
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
