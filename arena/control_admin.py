"""The control room in the admin: a ModelAdmin mixin that adds ``<id>/control/`` to a model's admin (a
contest, a wager session, a study), linked from the object's change page and from its list, for organisers
only (``arena.roles.organises``, and the admin's own permission on the object: view to look, change to
act).

The page shows the app selector's ``arena.control.Room``. Its buttons post back to the room, which checks
that the posted action is one the room offers now, then runs it as the admin's list would: the list
action of that name on the action's model (so the very same service, with the same messages; an
irreversible list action asks first, its confirmation posting back here), or one of the admin's
``control_services`` (the undos). An action that is irreversible but whose list action does not ask
(``Action.consequence``) is asked here, on the same confirmation page."""

from django.apps import apps
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from arena import roles
from arena.control import Action, Room
from core.errors import ArenaError

CONFIRM_TEMPLATE = "admin/loebner/irreversible_confirm.html"  # the irreversible list actions' own page


def control_url(model_admin, obj) -> str:
    opts = model_admin.model._meta
    return reverse(f"{model_admin.admin_site.name}:{opts.app_label}_{opts.model_name}_control", args=[obj.pk])


class ControlRoomAdmin:
    """Mixed into a ModelAdmin (before ``admin.ModelAdmin``). The admin gives ``control_room(obj)`` (the
    app's selector), and ``control_services``: ``{name: call(request, obj) -> done message}`` for the
    room's own buttons that are no list action; ``control_active()`` lists the objects the admin's index
    leads to."""

    control_room_template = "admin/control_room.html"
    change_form_template = "admin/control_room_change_form.html"
    control_services: dict = {}

    def control_room(self, obj) -> Room:
        raise NotImplementedError

    def control_active(self):
        """The objects whose control rooms the admin's index lists (those still under way)."""
        return self.model._default_manager.all()

    def control_allowed(self, request, obj=None, *, act=False) -> bool:
        permitted = self.has_change_permission(request, obj) if act else self.has_view_permission(request, obj)
        return roles.organises(request.user) and permitted

    # --- urls, links ---------------------------------------------------------------------------------

    def get_urls(self):
        opts = self.model._meta
        room = path(
            "<path:object_id>/control/",
            self.admin_site.admin_view(self.control_view),
            name=f"{opts.app_label}_{opts.model_name}_control",
        )
        return [room, *super().get_urls()]

    def get_list_display(self, request):
        shown = list(super().get_list_display(request))
        return [*shown, "control_link"] if self.control_allowed(request) else shown

    @admin.display(description="control room")
    def control_link(self, obj):
        return format_html('<a href="{}" class="control-room-link">control room</a>', control_url(self, obj))

    def change_view(self, request, object_id, form_url="", extra_context=None):
        obj = self.get_object(request, unquote(object_id))
        if obj is not None and self.control_allowed(request, obj):
            extra_context = {**(extra_context or {}), "control_url": control_url(self, obj)}
        return super().change_view(request, object_id, form_url, extra_context)

    # --- the room ------------------------------------------------------------------------------------

    def control_view(self, request, object_id):
        obj = self.get_object(request, unquote(object_id))
        if obj is None:
            raise Http404(f"No such {self.model._meta.verbose_name}.")
        if not self.control_allowed(request, obj, act=request.method == "POST"):
            raise PermissionDenied("Organisers only.")
        here = control_url(self, obj)
        if request.method == "POST":
            response = self.control_post(request, obj)
            if isinstance(response, TemplateResponse):  # a confirmation: Cancel comes back here
                response.context_data.update(cancel_url=here, control_room_url=here)
                return response
            return response or HttpResponseRedirect(here)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": obj,
            "title": f"Control room: {obj}",
            "room": self.control_room(obj),
            "change_url": reverse(
                f"{self.admin_site.name}:{self.model._meta.app_label}_{self.model._meta.model_name}_change",
                args=[obj.pk],
            ),
        }
        return TemplateResponse(request, self.control_room_template, context)

    def control_post(self, request, obj):
        """Runs the posted action if the room offers it now; None (then the room again) or a page."""
        name = request.POST.get("action", "")
        target = request.POST.get("target", "")
        target = int(target) if target.isdigit() else None
        action = self.control_room(obj).action(name, target)
        if action is None:
            messages.error(request, f"{obj}: not done: that is not a step it can take now.")
            return None
        if name in self.control_services:
            try:
                done = self.control_services[name](request, obj)
            except ArenaError as exc:
                messages.error(request, f"{obj}: not done: {exc}")
            else:
                messages.success(request, f"{obj}: {done}")
            return None
        if action.consequence and request.POST.get("post") != "yes":
            return self.control_confirm(request, obj, action)
        return self.control_list_action(request, obj, action)

    def control_list_action(self, request, obj, action: Action):
        model_admin = self.admin_site.get_model_admin(apps.get_model(action.model)) if action.model else self
        found = model_admin.get_actions(request).get(action.name)
        if found is None:
            messages.error(request, f"{obj}: not done: you may not “{action.label}”.")
            return None
        queryset = model_admin.model._default_manager.filter(pk=obj.pk if action.target is None else action.target)
        return found[0](model_admin, request, queryset)

    def control_confirm(self, request, obj, action: Action):
        """The irreversible actions' confirmation page, for an action whose list action does not ask."""
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": f"{action.label}: are you sure?",
            "action_name": action.name,
            "description": action.label,
            "consequence": action.consequence,
            "items": [{"obj": obj, "warnings": []}],
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, CONFIRM_TEMPLATE, context)

    # --- the admin's index ---------------------------------------------------------------------------

    def control_index(self, request) -> list[dict]:
        """``[{"name", "url"}]``: the rooms the admin's index lists for this user (none for others)."""
        if not self.control_allowed(request):
            return []
        return [{"name": str(obj), "url": control_url(self, obj)} for obj in self.control_active()[:10]]
