"""Thin websocket consumers: parse, call a service or selector, forward pushes.

Every inbound frame is JSON `{"type": ..., ...}`. Anything malformed, unknown, oversize, late or not the
sender's to do is answered with `{"type": "error", "code": ..., "message": ...}`; nothing is stored and
the connection stays open.
"""

import asyncio
from functools import cached_property

from channels.db import database_sync_to_async

from arena import groups, services
from arena.models import Message
from arena.selectors import interrogations
from bots.typing_delay import TypingRelay
from core.consumers import BaseConsumer, db, db_message
from core.errors import InvalidInput, NotAllowed


class JudgeConsumer(BaseConsumer):
    actions = {
        "state": "on_state",
        "message": "on_message",
        "typing": "on_typing",
        "keys": "on_keys",
        "start": "on_start",
        "end": "on_end",
        "verdict": "on_verdict",
    }

    audience = "judge"
    next_steps = True  # the state links the judge's next step once the interrogation is over (arena.next_steps)

    def authorise(self):
        self.interrogation = interrogations.interrogation_for_judge(
            public_id=self.scope["url_route"]["kwargs"]["public_id"], user=self.scope["user"]
        )
        self.by_side = self._conversations_by_side()

    def groups_to_join(self):
        return [groups.judge_group(self.interrogation.pk)] + [
            groups.conversation_group(c.pk) for c in self.by_side.values()
        ]

    def state(self):
        self.interrogation.refresh_from_db()  # one read for the close-if-due check and the state
        closed = services.interrogation_close_if_due(interrogation_id=self.interrogation.pk, seen=self.interrogation)
        return interrogations.judge_state(interrogation=self.interrogation, refresh=closed, with_next=self.next_steps)

    async def _conversation(self, side):
        if side not in ("left", "right", "sole"):
            raise InvalidInput('side must be "left", "right" or "sole".')
        try:
            return self.by_side[side]
        except KeyError:
            raise InvalidInput(f"This interrogation has no {side} witness.") from None

    def _conversations_by_side(self):
        return {c.side: c for c in self.interrogation.conversations.select_related("interrogation")}

    async def on_message(self, frame):
        conversation = await self._conversation(frame.get("side"))
        if self.interrogation.keystroke_mode:
            raise InvalidInput("This interrogation is in keystroke mode: send keys, not whole messages.")
        await db_message(services.message_post)(
            conversation_id=conversation.pk,
            sender_role=Message.Role.INTERROGATOR,
            text=frame.get("text"),
            user=self.scope["user"],
        )

    async def on_typing(self, frame):
        conversation = await self._conversation(frame.get("side"))
        await db(services.typing_signal)(
            conversation=conversation, sender_role=Message.Role.INTERROGATOR, user=self.scope["user"]
        )

    async def on_keys(self, frame):
        conversation = await self._conversation(frame.get("side"))
        await db(services.keystrokes_record)(
            conversation_id=conversation.pk,
            sender_role=Message.Role.INTERROGATOR,
            keys=frame.get("keys"),
            user=self.scope["user"],
        )

    async def on_start(self, frame):
        await database_sync_to_async(services.interrogation_start)(
            interrogation_id=self.interrogation.pk, by=self.scope["user"]
        )

    async def on_end(self, frame):
        await database_sync_to_async(services.interrogation_end)(
            interrogation_id=self.interrogation.pk, reason="judge", by=self.scope["user"]
        )

    async def on_verdict(self, frame):
        await database_sync_to_async(services.verdict_submit)(
            interrogation_id=self.interrogation.pk,
            judge=self.scope["user"],
            choice=frame.get("choice"),
            confidence=frame.get("confidence"),
            reason=frame.get("reason", ""),
        )
        await self.on_state({})


class WitnessConsumer(BaseConsumer):
    """A human confederate's console: their own conversation, nothing else."""

    actions = {"state": "on_state", "message": "on_message", "typing": "on_typing", "keys": "on_keys"}
    audience = "witness"

    def authorise(self):
        self.conversation = interrogations.conversation_for_witness(
            public_id=self.scope["url_route"]["kwargs"]["public_id"], user=self.scope["user"]
        )

    def groups_to_join(self):
        return [groups.witness_group(self.conversation.pk), groups.conversation_group(self.conversation.pk)]

    def state(self):
        services.interrogation_close_if_due(interrogation_id=self.conversation.interrogation_id)
        return interrogations.witness_state(conversation=self.conversation)

    async def on_message(self, frame):
        if self.conversation.interrogation.keystroke_mode:
            raise InvalidInput("This interrogation is in keystroke mode: send keys, not whole messages.")
        await db_message(services.message_post)(
            conversation_id=self.conversation.pk,
            sender_role=Message.Role.WITNESS,
            text=frame.get("text"),
            user=self.scope["user"],
        )
        self.typing.stop()

    @cached_property
    def typing(self) -> TypingRelay:
        """The judge sees this person typing at the one cadence of every witness, not at their console's."""
        return TypingRelay(signal=self.typing_signal, clock=asyncio.get_running_loop().time)

    async def typing_signal(self):
        await db(services.typing_signal)(
            conversation=self.conversation, sender_role=Message.Role.WITNESS, user=self.scope["user"]
        )

    async def on_typing(self, frame):
        await self.typing.seen()

    async def disconnect(self, code):
        if "typing" in self.__dict__:
            self.typing.cancel()
        await super().disconnect(code)

    async def on_keys(self, frame):
        await db(services.keystrokes_record)(
            conversation_id=self.conversation.pk,
            sender_role=Message.Role.WITNESS,
            keys=frame.get("keys"),
            user=self.scope["user"],
        )


class MonitorConsumer(BaseConsumer):
    """The organiser's live view of every interrogation, with the witnesses' identities."""

    def authorise(self):
        if not interrogations.can_monitor(self.scope["user"]):
            raise NotAllowed("Only organisers watch interrogations live.")

    def groups_to_join(self):
        return [groups.monitor_group()]

    def state(self):
        services.interrogations_close_due()
        return interrogations.monitor_state()
