"""The experiment page in headless Chromium: plots readable, no JavaScript errors, live to the end."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from lambdastar import services
from tests.conftest import make_user
from tests.e2e.conftest import login

from .conftest import tiny, wait_for_status

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


SIZES = [(1280, 800), (390, 844)]
#: Screenshots for review (var/ is ignored by git); SCREENSHOT_DIR moves them.
SHOTS = Path(os.environ.get("SCREENSHOT_DIR", "var/screenshots"))


def screenshot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def no_horizontal_overflow(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def check_layout(page):
    """Nothing wider than the screen; the progress bar and each plot take the content's full width."""
    assert no_horizontal_overflow(page)
    content = page.locator("#progress").bounding_box()["width"]
    assert page.locator("#bar").bounding_box()["width"] >= content - 2
    for chart in page.locator(".ls-chart svg").all():
        assert chart.bounding_box()["width"] >= 0.85 * content


@pytest.mark.parametrize("width, height", SIZES)
def test_a_finished_experiment_shows_its_plots(browser, live_daphne, width, height):
    owner = make_user("rita")
    experiment = services.experiment_create(owner=owner, name="tiny", configuration=tiny(), seed=2)
    services.experiment_launch(experiment_id=experiment.pk, enqueue=False)
    services.experiment_execute(experiment_id=experiment.pk)
    page = login(browser, live_daphne, "rita", "rita-pw")
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_daphne}/lambdastar/experiments/{experiment.pk}/")
    expect(page.locator("#status")).to_have_text("finished")
    for name in ("types", "agents", "complexity"):
        expect(page.locator(f"#plot-{name} .ls-chart svg")).to_be_visible()
    expect(page.locator("#plot-types")).to_have_attribute("data-points", "2")  # ls and random
    assert page.locator("#plot-types svg g.mark-symbol.role-mark path").count() == 2  # not the legend
    assert (
        page.locator("#plot-types svg g.mark-rule.role-mark line, #plot-types svg g.mark-rule.role-mark path").count()
        >= 2
    )  # CI bars
    expect(page.locator("#done")).to_have_text("56")
    check_layout(page)
    with page.expect_download() as download:
        page.locator("#plot-types button.export-svg").click()
    assert download.value.suggested_filename == "lambdastar-types.svg"
    with page.expect_download() as download:
        page.locator("#plot-types button.export-png").click()
    assert download.value.suggested_filename == "lambdastar-types.png"
    assert page.locator("#plot-types a.export-csv").get_attribute("href").endswith("/plots/types.csv")
    screenshot(page, f"lambdastar-finished-{width}x{height}")
    page.add_script_tag(url="/static/vendor/axe-core/axe.min.js")
    found = page.evaluate("""() => axe.run(document.querySelector("main"), {resultTypes: ["violations"]})
        .then((r) => r.violations.filter((v) => ["serious", "critical"].includes(v.impact))
        .map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", ")))""")
    assert found == [], found  # the page's own content (the nav bar is base.html's)
    assert page.js_errors == []


@pytest.mark.parametrize("width, height", SIZES)
def test_partial_plots_appear_live_as_chunks_finish(browser, live_daphne, services_mode, monkeypatch, width, height):
    if not services_mode:
        pytest.skip("the embedded default's in-memory channel layer does not cross into the daphne process")
    from lambdastar import notify, selectors

    monkeypatch.setattr(notify, "CHUNK_PUSH_INTERVAL_S", 0.0)  # a push per stored chunk
    owner = make_user("rita")
    experiment = services.experiment_create(owner=owner, name="partial", configuration=tiny(episodes=8), seed=2)
    services.experiment_launch(experiment_id=experiment.pk, enqueue=False)
    keys = selectors.chunk_keys_missing(experiment=experiment)  # as the queue runs them: 16 chunks of 2
    page = login(browser, live_daphne, "rita", "rita-pw")
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_daphne}/lambdastar/experiments/{experiment.pk}/")
    expect(page.locator("#status")).to_have_text("queued")
    expect(page.locator("#results-body")).to_contain_text("No chunk stored yet")
    services.chunk_execute(run_id=keys[0][0], agent_type=keys[0][1], index=keys[0][2])
    expect(page.locator("#status")).to_have_text("running")  # the page reloads once as it starts
    expect(page.locator("#plot-types .ls-chart svg")).to_be_visible()
    expect(page.locator("#plot-types")).to_have_attribute("data-points", "1")
    expect(page.locator("#done")).to_have_text("2")
    for run_id, agent_type, index in keys[1:9]:
        services.chunk_execute(run_id=run_id, agent_type=agent_type, index=index)
    expect(page.locator("#done")).to_have_text("18")
    stored = {(r, t) for r, t, _ in keys[:9]}
    expect(page.locator("#results-body tr")).to_have_count(len(stored))  # a row per run and type so far
    expect(page.locator("#plot-types")).to_have_attribute("data-points", str(len({t for _, t in stored})))
    expect(page.locator("#eta")).not_to_have_text("–")
    check_layout(page)
    screenshot(page, f"lambdastar-running-{width}x{height}")
    for run_id, agent_type, index in keys[9:]:
        services.chunk_execute(run_id=run_id, agent_type=agent_type, index=index)
    expect(page.locator("#status")).to_have_text("finished")
    expect(page.locator("#done")).to_have_text("32")
    expect(page.locator("#results-body tr")).to_have_count(4)
    assert page.js_errors == []


def test_the_page_follows_a_running_experiment_live(browser, live_daphne, executor, services_mode):
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


def test_the_owner_launches_a_draft_from_its_page_on_a_phone(browser, live_daphne, executor):
    owner = make_user("rita")
    experiment = services.experiment_create(owner=owner, name="from the page", configuration=tiny(), seed=2)
    page = login(browser, live_daphne, "rita", "rita-pw")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_daphne}/lambdastar/experiments/{experiment.pk}/")
    expect(page.locator("#total")).to_have_text("56")  # planned, not 0
    expect(page.locator("#action-cancel")).to_have_count(0)
    page.locator("#action-launch").click()
    expect(page.locator("h1")).to_have_text("Launch this experiment?")
    assert no_horizontal_overflow(page)
    page.locator("#confirm").click()
    page.wait_for_url(f"{live_daphne}/lambdastar/experiments/{experiment.pk}/")
    wait_for_status(experiment, "finished")
    expect(page.locator("#status")).to_have_text("finished", timeout=15000)
    expect(page.locator("#plot-types .ls-chart svg")).to_be_visible()
    check_layout(page)
    assert page.js_errors == []


def test_a_running_experiment_before_its_first_chunk_shows_progress_not_empty_plots(browser, live_daphne):
    from lambdastar.models import Experiment

    owner = make_user("rita")
    experiment = services.experiment_create(owner=owner, name="just started", configuration=tiny(), seed=2)
    services.experiment_launch(experiment_id=experiment.pk, enqueue=False)
    Experiment.objects.filter(pk=experiment.pk).update(status=Experiment.Status.RUNNING)
    page = login(browser, live_daphne, "rita", "rita-pw")
    said = []
    page.on("console", lambda m: m.type in ("warning", "error") and said.append(m.text))
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_daphne}/lambdastar/experiments/{experiment.pk}/")
    expect(page.locator("#status")).to_have_text("running")
    expect(page.locator("#plots-note")).to_contain_text("appear when the first chunk is stored")
    expect(page.locator("#bar")).to_be_visible()
    expect(page.locator("#total")).to_have_text("56")
    assert page.locator(".ls-figure").count() == 0  # no empty plot
    expect(page.locator("#action-cancel")).to_be_visible()
    expect(page.locator("#action-resume")).to_have_count(0)  # its workers are at it
    assert said == [] and page.js_errors == []
