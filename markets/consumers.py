"""Thin websocket consumers for Turing Trade, on arena's ArenaConsumer (JSON frames, error frames).

Bettor: ask, buy/sell, state. Target (a human): answer, state. Spectator: state only. Each joins only
the groups it may hear: a bettor's private group carries its queue and its own answers' texts.
"""
from channels.db import database_sync_to_async

from arena.consumers import FORBIDDEN, ArenaConsumer
from arena.errors import NotAllowed
from markets import groups, selectors, services


class GameConsumer(ArenaConsumer):
    actions = {"state": "on_state"}

    async def connect(self):
        try:
            await database_sync_to_async(self._load)()
        except NotAllowed:
            return await self.close(code=FORBIDDEN)
        for group in self.groups_to_join():
            await self.join(group)
        await self.accept()
        await self.on_state({})

    def _load(self):
        self.game = selectors.game_by_public_id(public_id=self.scope["url_route"]["kwargs"]["public_id"])

    async def on_state(self, frame):
        await self.send_json(await database_sync_to_async(self._state)())

    async def arena_event(self, event):
        if event["payload"].get("type") == "refresh":
            return await self.on_state({})
        await super().arena_event(event)


class BettorConsumer(GameConsumer):
    actions = {"state": "on_state", "ask": "on_ask", "trade": "on_trade"}

    def _load(self):
        super()._load()
        self.participant = selectors.participant_for(game=self.game, user=self.scope["user"])
        if self.participant is None:
            raise NotAllowed("You are not a bettor of this game.")

    def groups_to_join(self):
        return [groups.bettors_group(self.game.pk), groups.bettor_group(self.participant.pk)]

    def _state(self):
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

    def _load(self):
        super()._load()
        if not selectors.is_target(game=self.game, user=self.scope["user"]):
            raise NotAllowed("You are not this game's target.")

    def groups_to_join(self):
        return [groups.target_group(self.game.pk)]

    def _state(self):
        return selectors.target_state(game=self.game)

    async def on_answer(self, frame):
        await database_sync_to_async(services.answer_submit)(
            game_id=self.game.pk, question_id=frame.get("question"), text=frame.get("text"), user=self.scope["user"]
        )


class SpectatorConsumer(GameConsumer):
    def groups_to_join(self):
        return [groups.spectators_group(self.game.pk)]

    def _state(self):
        return selectors.bettor_state(game=self.game, participant=None)
