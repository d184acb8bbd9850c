"""The experiment page in headless Chromium: plots readable, no JavaScript errors, live to the end."""
import pytest
from playwright.sync_api import expect

from lambdastar import services
from tests.conftest import make_user
from tests.e2e.conftest import browser, login  # noqa: F401  (the module-scoped browser fixture)

from .conftest import tiny, wait_for_status

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_finished_experiment_shows_its_plots(browser, live_daphne):  # noqa: F811
    owner = make_user("rita")
    experiment = services.experiment_create(owner=owner, name="tiny", configuration=tiny(), seed=2)
    services.experiment_launch(experiment_id=experiment.pk, enqueue=False)
    services.experiment_execute(experiment_id=experiment.pk)
    page = login(browser, live_daphne, "rita", "rita-pw")
    page.goto(f"{live_daphne}/lambdastar/experiments/{experiment.pk}/")
    expect(page.locator("#status")).to_have_text("finished")
    for name in ("types", "agents", "complexity"):
        expect(page.locator(f"#plot-{name} svg")).to_be_visible()
    assert page.locator("#plot-types svg circle").count() == 2  # ls and random, with their CI bars
    expect(page.locator("#done")).to_have_text("56")
    assert page.js_errors == []


def test_the_page_follows_a_running_experiment_live(browser, live_daphne, executor, services_mode):  # noqa: F811
    if not services_mode:
        pytest.skip("the embedded default's in-memory channel layer does not cross into the daphne process")
    owner = make_user("rita")
    experiment = services.experiment_create(owner=owner, name="live", configuration=tiny(episodes=40), seed=2)
    page = login(browser, live_daphne, "rita", "rita-pw")
    page.goto(f"{live_daphne}/lambdastar/experiments/{experiment.pk}/")
    expect(page.locator("#status")).to_have_text("draft")
    services.experiment_launch(experiment_id=experiment.pk)
    wait_for_status(experiment, "finished")
    expect(page.locator("#plot-types svg")).to_be_visible(timeout=10000)  # reloaded once finished
    expect(page.locator("#done")).to_have_text("160")
    assert page.js_errors == []
