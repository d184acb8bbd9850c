"""The Loebner organisers' forms in real Chromium, at a laptop's 1280 px and a phone's 390 px: a contest's
page (its prizes, entries and participants), an entry's page, a new entry and the page that builds the
schedule are no wider than the screen, and an entry's people are rows a person can type in. A full-page
screenshot of each lands in SCREENSHOTS_DIR (default test-artifacts/screenshots/) for review."""

import os
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests.tournaments.loebner.helpers import finals_make
from tournaments.loebner.models import PrizeRow

from .conftest import login

pytest.importorskip("tournaments.loebner.rules.preview")
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
SCREENSHOTS = Path(os.environ.get("SCREENSHOTS_DIR", Path(settings.BASE_DIR) / "test-artifacts" / "screenshots"))
WIDTH = "() => [document.documentElement.scrollWidth, window.innerWidth]"


def schedule_page(page, base, contest):
    """The contest list's action Build the schedule, chosen as the organiser's browser does."""
    page.goto(f"{base}/admin/loebner/contest/")
    page.check(f"input[name=_selected_action][value='{contest.pk}']")
    page.select_option("select[name=action]", "build_schedule")
    page.click("button[name=index]")
    expect(page.locator("#irreversible-confirm")).to_be_visible()


def test_the_contest_entry_and_schedule_pages_fit_a_laptop_and_a_phone(browser, live_daphne, cast):
    contest = finals_make(cast, fmt="generic", schedule=False)
    PrizeRow.objects.create(contest=contest, place=1, amount=Decimal("4000"), medal="bronze")
    entry = contest.entries.order_by("pk").first()
    pages = {
        "contest": f"/admin/loebner/contest/{contest.pk}/change/",
        "entry": f"/admin/loebner/contestentry/{entry.pk}/change/",
        "new-entry": "/admin/loebner/contestentry/add/",
    }
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page = login(browser, live_daphne, "olivia", "olivia-pw")
    too_wide = []
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        for name, path in pages.items():
            page.goto(f"{live_daphne}{path}")
            page.wait_for_load_state("load")
            page.screenshot(path=str(SCREENSHOTS / f"loebner-admin-{name}-{size}.png"), full_page=True)
            wide, screen = page.evaluate(WIDTH)
            if wide > screen + 1:
                too_wide.append(f"{name} at {size}: {wide} px wide on a {screen} px screen")
        schedule_page(page, live_daphne, contest)
        page.screenshot(path=str(SCREENSHOTS / f"loebner-admin-schedule-{size}.png"), full_page=True)
        wide, screen = page.evaluate(WIDTH)
        if wide > screen + 1:
            too_wide.append(f"schedule at {size}: {wide} px wide on a {screen} px screen")
    assert not too_wide, "\n".join(too_wide)

    # the people rows are boxes a person types in, on the phone too, and the server keeps what was typed
    page.goto(f"{live_daphne}/admin/loebner/contestentry/{entry.pk}/change/")
    name, email = page.locator("#id_people-1-name"), page.locator("#id_people-1-email")
    expect(name).to_be_visible()
    box = name.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390 + 1
    name.fill("Grace Hopper")
    email.fill("grace@example.org")
    page.click("input[name=_save]")
    expect(page.locator(".messagelist")).to_contain_text("was changed successfully")
    entry.refresh_from_db()
    assert entry.people[-1] == {"name": "Grace Hopper", "email": "grace@example.org", "affiliation": ""}
    assert page.js_errors == []
