"""The players' consoles: the arena's own judge and witness consoles (same frames, same pages, same
blindness), reached through the player's session instead of a login, with the study's rules on
messages; and the lobby's live page.

A player acts as their participant's arena user (`Participant.player`, never logged in): ``authorise``
finds the participant from the session and puts that user in the scope, so the arena's checks (only
this interrogation's judge, only this conversation's witness) and the rate limits apply unchanged."""

from channels.db import database_sync_to_async

from arena.consumers import JudgeConsumer, WitnessConsumer
from arena.models import Message
from core.consumers import BaseConsumer, db, db_message
from core.errors import NotAllowed
from studies import groups, selectors, services
from studies.models import DEFAULT_LABEL, Game


def _participant(scope, study_id: int):
    participant = selectors.session_participant_in(scope.get("session") or {}, study_id)
    if participant is None:
        raise NotAllowed("Join the study on /play/ first.")
    return participant


def _game(scope):
    game = (
        Game.objects.filter(public_id=scope["url_route"]["kwargs"]["public_id"])
        .select_related("study", "interrogation", "condition")
        .first()
    )
    if game is None:
        raise NotAllowed("No such game.")
    return game, _participant(scope, game.study_id)


def reveal_names(state: dict, game: Game) -> dict:
    """The arena's reveal in the study's words: a human player, or the AI witness's public label (the
    researcher's; the condition's name and its entry's stay internal)."""
    for item in (state.get("reveal") or {}).values():
        item["name"] = (
            "a human player"
            if item["kind"] == "human"
            else (game.condition.public_label if game.condition_id else DEFAULT_LABEL)
        )
    return state


class PlayJudgeConsumer(JudgeConsumer):
    next_steps = False  # a study leads its players on through its own pages ("Play again")
    actions = {
        "state": "on_state",
        "message": "on_message",
        "typing": "on_typing",
        "end": "on_end",
        "verdict": "on_verdict",
    }

    def authorise(self):
        self.game, self.participant = _game(self.scope)
        if self.game.interrogator_id != self.participant.pk:
            raise NotAllowed("You are not this game's interrogator.")
        self.scope["user"] = self.participant.player
        self.interrogation = self.game.interrogation
        self.by_side = self._conversations_by_side()

    def state(self):
        return reveal_names(super().state(), self.game)

    async def on_message(self, frame):
        conversation = await self._conversation(frame.get("side"))
        await db_message(services.game_message_post)(
            game=self.game,
            conversation_id=conversation.pk,
            sender_role=Message.Role.INTERROGATOR,
            text=frame.get("text"),
            user=self.scope["user"],
        )

    async def on_verdict(self, frame):
        await database_sync_to_async(services.game_verdict)(
            game=self.game,
            participant=self.participant,
            choice=frame.get("choice"),
            confidence=frame.get("confidence"),
            reason=frame.get("reason", ""),
        )
        await self.on_state({})


class PlayWitnessConsumer(WitnessConsumer):
    actions = {"state": "on_state", "message": "on_message", "typing": "on_typing"}

    def authorise(self):
        self.game, self.participant = _game(self.scope)
        if self.game.human_witness_id != self.participant.pk:
            raise NotAllowed("You are not this game's witness.")
        self.scope["user"] = self.participant.player
        self.conversation = self.game.interrogation.conversations.select_related("interrogation").get(
            witness_human=self.participant.player
        )

    async def on_message(self, frame):
        await db_message(services.game_message_post)(
            game=self.game,
            conversation_id=self.conversation.pk,
            sender_role=Message.Role.WITNESS,
            text=frame.get("text"),
            user=self.scope["user"],
        )


class LobbyConsumer(BaseConsumer):
    """The lobby page: its state (waiting, the game formed, history counts), join and leave."""

    actions = {"state": "on_state", "join": "on_join", "leave": "on_leave"}

    def authorise(self):
        self.participant = _participant(self.scope, self.scope["url_route"]["kwargs"]["study_id"])
        self.scope["user"] = self.participant.player

    def groups_to_join(self):
        return [groups.participant_group(self.participant.pk)]

    def state(self, expire: bool = True):
        if expire:
            services.lobby_expire(study_id=self.participant.study_id)
        self.participant.refresh_from_db(fields=["stage"])
        return selectors.lobby_state(participant=self.participant)

    async def on_join(self, frame):
        await db(services.lobby_join)(participant_id=self.participant.pk)
        # the join itself settled what was due under the study's lock: no second sweep before this state
        await self.send_json(await db(self.state)(expire=False))

    async def on_leave(self, frame):
        await db(services.lobby_leave)(participant_id=self.participant.pk)
        await self.on_state({})
