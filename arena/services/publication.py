from django.db import transaction
from django.utils import timezone

from arena.models import Interrogation, Status
from arena.services.results import results_version_bump
from core.errors import Closed


def interrogation_publish(*, interrogation_id: int, with_names: bool = False) -> Interrogation:
    """Make a finished interrogation's transcripts public (witnesses anonymised unless with_names)."""
    with transaction.atomic():
        interrogation = Interrogation.objects.select_for_update().get(pk=interrogation_id)
        if interrogation.rehearsal:
            raise Closed("A rehearsal is practice: it is never published.")
        if interrogation.status not in (Status.ENDED, Status.ABORTED):
            raise Closed("Only a finished interrogation can be published.")
        interrogation.published_at = interrogation.published_at or timezone.now()
        interrogation.published_with_names = with_names
        interrogation.save(update_fields=["published_at", "published_with_names"])
        results_version_bump()
    return interrogation


def interrogation_unpublish(*, interrogation_id: int) -> None:
    Interrogation.objects.filter(pk=interrogation_id).update(published_at=None, published_with_names=False)
    results_version_bump()
