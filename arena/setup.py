"""Idempotent set-up that must exist in every database: the role groups and their permissions."""

from django.contrib.auth.models import Group, Permission

from arena import roles


def ensure_role_groups(**kwargs) -> None:
    for role in roles.ALL:
        group, _ = Group.objects.get_or_create(name=role)
        wanted = []
        for dotted in roles.PERMISSIONS[role]:
            app_label, codename = dotted.split(".", 1)
            permission = Permission.objects.filter(content_type__app_label=app_label, codename=codename).first()
            if permission is not None:
                wanted.append(permission)
        group.permissions.add(*wanted)
