"""An experiment page's live progress: the state on connect and on request, then every push."""

from core.consumers import BaseConsumer
from lambdastar import groups, selectors


class ExperimentConsumer(BaseConsumer):
    def authorise(self):
        self.experiment = selectors.experiment_for_user(
            experiment_id=self.scope["url_route"]["kwargs"]["pk"], user=self.scope["user"]
        )

    def groups_to_join(self):
        return [groups.experiment_group(self.experiment.pk)]

    def state(self):
        return selectors.experiment_progress(experiment=self.experiment)
