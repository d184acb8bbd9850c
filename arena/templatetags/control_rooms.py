"""``{% control_rooms as groups %}``: for the admin's index, the control rooms this user may open, by model
(every ModelAdmin with ``arena.control_admin.ControlRoomAdmin``), each ``{"title", "rooms": [{"name",
"url"}]}``; empty for whoever does not organise."""

from django import template
from django.contrib import admin

from arena.control_admin import ControlRoomAdmin

register = template.Library()


@register.simple_tag(takes_context=True)
def control_rooms(context) -> list[dict]:
    request = context.get("request")
    if request is None:
        return []
    groups = []
    for model, model_admin in admin.site._registry.items():
        if isinstance(model_admin, ControlRoomAdmin):
            rooms = model_admin.control_index(request)
            if rooms:
                groups.append({"title": str(model._meta.app_config.verbose_name), "rooms": rooms})
    return sorted(groups, key=lambda group: group["title"])
