"""Idempotent set-up that must exist in every database: the role groups and their permissions."""

from django.contrib.auth.models import Group, Permission
from django.db.models import Q

from arena import roles


def ensure_role_groups(**kwargs) -> None:
    """Each role's group, holding (at least) its permissions, the organiser's with every permission of the
    formats' apps (roles.ORGANISER_APPS); two queries for all the permissions. A permission whose model is
    not migrated yet is skipped (the next migrate adds it)."""
    wanted = {dotted for role in roles.ALL for dotted in roles.PERMISSIONS[role]}
    matches = Q(pk__in=[])
    for dotted in wanted:
        app_label, codename = dotted.split(".", 1)
        matches |= Q(content_type__app_label=app_label, codename=codename)
    found = {
        f"{app_label}.{codename}": pk
        for pk, app_label, codename in Permission.objects.filter(matches).values_list(
            "pk", "content_type__app_label", "codename"
        )
    }
    formats = Permission.objects.filter(content_type__app_label__in=roles.ORGANISER_APPS).values_list("pk", flat=True)
    for role in roles.ALL:
        group, _ = Group.objects.get_or_create(name=role)
        group.permissions.add(*(found[dotted] for dotted in roles.PERMISSIONS[role] if dotted in found))
        if role == roles.ORGANISER:
            group.permissions.add(*formats)
