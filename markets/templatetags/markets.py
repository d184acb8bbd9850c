"""`{% load markets %}{% games_as_target user as games %}`: the live games whose human target the user is, for
the pages where a target looks for them (the home page, the game list)."""

from django import template

from markets import selectors

register = template.Library()


@register.simple_tag
def games_as_target(user):
    return selectors.games_as_target(user=user)
