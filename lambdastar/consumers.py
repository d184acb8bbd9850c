"""An experiment page's live progress: the state on connect and on request, then every push."""
from channels.db import database_sync_to_async

from arena.consumers import FORBIDDEN, ArenaConsumer
from arena.errors import NotAllowed
from lambdastar import groups, selectors


class ExperimentConsumer(ArenaConsumer):
    actions = {"state": "on_state"}

    async def connect(self):
        try:
            self.experiment = await database_sync_to_async(selectors.experiment_for_user)(
                experiment_id=self.scope["url_route"]["kwargs"]["pk"], user=self.scope["user"])
        except NotAllowed:
            return await self.close(code=FORBIDDEN)
        await self.join(groups.experiment_group(self.experiment.pk))
        await self.accept()
        await self.on_state({})

    async def on_state(self, frame):
        progress = await database_sync_to_async(selectors.experiment_progress)(experiment=self.experiment)
        await self.send_json(progress)
