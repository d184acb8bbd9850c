"""Who the admin's people pickers list: the accounts of people, never the stand-in users a format makes
for anonymous players (a public study's players: one user each, no password, no role). A format says
which users are stand-ins (`people_hidden_register`, from its AppConfig.ready); every user dropdown and
autocomplete of every admin page, and the admin's list of users, then leave them out. Their records stay
where they belong (a study's participants)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import Q, QuerySet

_hidden: list[Callable[[], Q]] = []


def people_hidden_register(condition: Callable[[], Q]) -> None:
    """Register a condition on users (a callable returning a Q) that marks stand-ins to leave out."""
    if condition not in _hidden:
        _hidden.append(condition)


def people_listed(queryset: QuerySet) -> QuerySet:
    """`queryset` of users without the registered stand-ins."""
    for condition in _hidden:
        queryset = queryset.exclude(condition())
    return queryset


class PeoplePickers:
    """A ModelAdmin (or inline) mixin: every user field's choices without the stand-ins."""

    def _people(self, db_field, request, kwargs):
        model = get_user_model()
        if db_field.remote_field.model is model:
            queryset = kwargs.get("queryset")
            if queryset is None:
                queryset = self.get_field_queryset(kwargs.get("using"), db_field, request)
            kwargs["queryset"] = people_listed(queryset if queryset is not None else model._default_manager.all())
        return kwargs

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        return super().formfield_for_foreignkey(db_field, request, **self._people(db_field, request, kwargs))

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        return super().formfield_for_manytomany(db_field, request, **self._people(db_field, request, kwargs))

    def get_form(self, request, obj=None, **kwargs):
        return _form_people(super().get_form(request, obj, **kwargs))

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        _form_people(formset.form)
        return formset


def _form_people(form):
    """The user fields a form declares itself (a custom form's pickers) without the stand-ins."""
    model = get_user_model()
    for field in form.base_fields.values():
        queryset = getattr(field, "queryset", None)
        if queryset is not None and queryset.model is model and not getattr(field, "people_listed", False):
            field.queryset = people_listed(queryset)
            field.people_listed = True
    return form


class PeopleUserAdmin(UserAdmin):
    """The admin's users: people's accounts (the lists and the autocomplete that user pickers ask)."""

    def get_queryset(self, request):
        return people_listed(super().get_queryset(request))


def _with_pickers(cls: type) -> type:
    if issubclass(cls, PeoplePickers):
        return cls
    return type(cls.__name__, (PeoplePickers, cls), {"__module__": cls.__module__, "__qualname__": cls.__qualname__})


def people_pickers_install(site: admin.AdminSite = admin.site) -> None:
    """Give every registered ModelAdmin and its inlines the people pickers, and list people's accounts
    only among the users (called once, after every app's admin module is loaded)."""
    model = get_user_model()
    if model in site._registry and not isinstance(site._registry[model], PeopleUserAdmin):
        site.unregister(model)
        site.register(model, PeopleUserAdmin)
    for model_admin in site._registry.values():
        model_admin.__class__ = _with_pickers(type(model_admin))
        model_admin.inlines = [_with_pickers(inline) for inline in model_admin.inlines]
