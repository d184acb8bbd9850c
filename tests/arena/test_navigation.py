"""The main navigation: every section an organiser uses is one click away from any page."""

import re

from django.urls import reverse

ORGANISER_SECTIONS = [
    "play",
    "loebner:contests",
    "wager:sessions",
    "transcript_list",
    "results",
    "markets:games",
    "tables:games",
    "lambdastar:experiment_list",
    "monitor",
    "studies:list",
    "admin:index",
]


def nav_links(page: str) -> set[str]:
    nav = re.search(r'<nav id="site-nav".*?</nav>', page, re.S).group(0)
    return set(re.findall(r'href="([^"]+)"', nav))


def test_an_organiser_reaches_every_section_from_the_navigation(cast, client):
    client.force_login(cast.olivia)
    links = nav_links(client.get("/").content.decode())
    missing = [name for name in ORGANISER_SECTIONS if reverse(name) not in links]
    assert missing == []


def test_the_public_navigation_has_no_organiser_sections(db, client):
    links = nav_links(client.get("/").content.decode())
    assert reverse("studies:list") not in links and reverse("monitor") not in links
