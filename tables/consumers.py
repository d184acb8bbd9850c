"""The game page's websocket: anyone may watch; it sends the state (status, turns played) on connect
and forwards each push, on which the page re-reads its live part."""

from core.consumers import BaseConsumer
from core.errors import NotAllowed
from tables import groups
from tables.models import Game


class GameConsumer(BaseConsumer):
    def authorise(self):
        try:
            self.game = Game.objects.get(pk=self.scope["url_route"]["kwargs"]["game_id"])
        except Game.DoesNotExist:
            raise NotAllowed("No such game.") from None

    def groups_to_join(self):
        return [groups.game_group(self.game.pk)]

    def state(self):
        self.game.refresh_from_db()
        return {"type": "state", "status": self.game.status, "turns_played": self.game.turns_played}
