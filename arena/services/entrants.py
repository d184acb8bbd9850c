"""Entrants sign themselves up (no e-mail); with ``ARENA_ENTRANT_APPROVAL`` on, an organiser approves them
in the admin before they may register entries (approval is membership of the entrant group)."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone

from arena import roles
from arena.models import EntrantApplication

# Names no one may sign up with; a taken name is refused in the same words, so that sign-up's answer
# does not single out the names of existing accounts (and sign-ups per address are limited:
# arena.services.logins).
RESERVED_USERNAMES = frozenset(
    "admin administrator root staff support system arena organiser organizer moderator judge entrant "
    "confederate spectator anonymous webmaster security".split()
)
USERNAME_UNAVAILABLE = "This username is not available: choose another."


def username_available(*, username: str) -> bool:
    """Whether a new account may take ``username``: not reserved, and no account has it in any case."""
    if username.casefold() in RESERVED_USERNAMES:
        return False
    return not get_user_model().objects.filter(username__iexact=username).exists()


def entrant_signup(*, username: str, password: str, about: str = "") -> tuple[object, EntrantApplication]:
    """A new user and their application; approved at once unless approval is required. The caller has
    validated the username and the password (Django's UserCreationForm)."""
    with transaction.atomic():
        user = get_user_model().objects.create_user(username=username, password=password)
        application = EntrantApplication.objects.create(user=user, about=about[:500])
        if not settings.ARENA_ENTRANT_APPROVAL:
            entrant_approve(application_id=application.pk, by=None)
            application.refresh_from_db()
    return user, application


def entrant_approve(*, application_id: int, by) -> bool:
    """Approve a pending application: the user joins the entrant group. False if it was already approved."""
    with transaction.atomic():
        application = EntrantApplication.objects.select_for_update().select_related("user").get(pk=application_id)
        if application.approved_at is not None:
            return False
        application.user.groups.add(Group.objects.get_or_create(name=roles.ENTRANT)[0])
        application.approved_at = timezone.now()
        application.approved_by = by
        application.save(update_fields=["approved_at", "approved_by"])
    return True


def entrant_status(*, user) -> str:
    """ "entrant" (may register entries), "pending" (awaiting approval) or "none"."""
    if roles.has_role(user, roles.ENTRANT):
        return "entrant"
    if user.is_authenticated and EntrantApplication.objects.filter(user=user, approved_at__isnull=True).exists():
        return "pending"
    return "none"
