"""Every role's main page at a desktop (1280×800) and a phone (390×844) size, as the cast member who opens
it: nothing wider than the screen, nothing the Content-Security-Policy blocks, no serious or critical
axe-core violation, nothing in the browser's console (no warning from a chart's spec, no script error),
and a full-page screenshot of each in SCREENSHOTS_DIR (default test-artifacts/screenshots/) for review."""

import pytest
from playwright.sync_api import expect

from .conftest import SAVED
from .pages import OWNED_ELSEWHERE, PAGES, SIZES

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SEVERE = ("serious", "critical")
# Pages that reload themselves (static/arena/autorefresh.js) hold still while they are examined.
HOLD_STILL = "sessionStorage.setItem(`arena-refresh-paused:${location.pathname}`, '1')"
# What the Content-Security-Policy blocked on the page: an inline script or handler, an eval, a resource.
CSP_WATCH = """window.cspBlocked = [];
document.addEventListener('securitypolicyviolation', (e) => window.cspBlocked.push(`${e.effectiveDirective}
  blocked ${e.blockedURI || 'inline'} at ${e.sourceFile || location.pathname}:${e.lineNumber}`));"""
AXE_RUN = """async () => {
  const run = axe.run(document, {resultTypes: ['violations']});
  const late = new Promise((_, fail) => setTimeout(() => fail(new Error('axe took over 30 s')), 30000));
  return (await Promise.race([run, late])).violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => n.target.join(' ') + '  ' + n.html.slice(0, 120))}));
}"""

# every chart drawn (or fallen back): what a chart's spec makes Vega warn about is in the console by then
CHARTS_DRAWN = """async () => { await Promise.all([...document.querySelectorAll('figure[data-chart]')]
  .map((f) => window.Charts && Charts.get(f.id) && Charts.get(f.id).ready)); }"""


# A wide table scrolls inside itself on a phone; its data may, but a button in it must not start out of sight.
CLIPPED_BUTTONS = """() => [...document.querySelectorAll('table button, table input[type=submit]')].filter(b => {
  const box = b.getBoundingClientRect(), table = b.closest('table').getBoundingClientRect();
  return box.width > 0 && (box.right > table.right + 1 || box.right > window.innerWidth + 1);
}).map(b => (b.textContent || b.value).trim()).slice(0, 5)"""


def _params():
    for spec in PAGES:
        for size in SIZES:
            owner = OWNED_ELSEWHERE.get(f"{spec.name}@{size}") or OWNED_ELSEWHERE.get(spec.name)
            marks = [pytest.mark.xfail(strict=False, reason=f"owned by {owner}")] if owner else []
            yield pytest.param(spec, size, id=f"{spec.name}-{size}", marks=marks)


def play_to(context, step):
    """A new visitor's /play/ walked to ``step``: consent, survey (consented), lobby (answered), game."""
    page = context.new_page()
    page.goto("/play/")
    if step == "consent":
        return page
    page.check("#agree")
    page.click("#consent-submit")
    expect(page.locator("#survey-submit")).to_be_visible()
    if step == "survey":
        return page
    page.fill("#q-age", "29")
    page.fill("#q-attn", "blue")
    page.click("#survey-submit")
    expect(page.locator("#play")).to_be_visible()
    if step == "lobby":
        return page
    page.click("#play")
    page.wait_for_url("**/play/game/**")
    return page


def listen(page):
    """The page's console warnings and errors (a chart's spec that Vega warns about among them)."""
    page.said = []
    page.on("console", lambda m: m.type in ("warning", "error") and page.said.append(f"{m.type}: {m.text[:200]}"))
    return page


def open_page(spec, contexts, browser, base_url, ids):
    if spec.user == "player":
        context = browser.new_context(base_url=base_url)
        context.add_init_script(HOLD_STILL)
        context.add_init_script(CSP_WATCH)
        context.on("page", listen)
        return play_to(context, spec.path), context
    page = listen(contexts(spec.user).new_page())
    page.add_init_script(HOLD_STILL)
    page.add_init_script(CSP_WATCH)
    response = page.goto(spec.path.format(**ids))
    assert response.status == 200, f"{page.url}: {response.status}"
    return page, None


def settle(page):
    """Loaded, and live pages past "connecting…" (their first state has arrived)."""
    page.wait_for_load_state("load")
    page.wait_for_function("() => !document.body.innerText.includes('connecting…')", timeout=15000)


def severe_violations(page, axe_script):
    page.add_script_tag(url=axe_script)  # from the platform's own /static/: the policy allows no inline script
    return [v for v in page.evaluate(AXE_RUN) if v["impact"] in SEVERE]


def describe(violations):
    lines = []
    for v in violations:
        lines.append(f"  {v['id']} ({v['impact']}): {v['help']}, {len(v['nodes'])} node(s):")
        lines.extend(f"      {node}" for node in v["nodes"][:6])
    return "\n".join(lines)


@pytest.mark.parametrize(("spec", "size"), list(_params()))
def test_page_fits_and_passes_axe(spec, size, browser, contexts, sweep_site, axe_script, screenshots):
    base_url, ids, _ = sweep_site
    page, own_context = open_page(spec, contexts, browser, base_url, ids)
    try:
        page.set_viewport_size(dict(zip(("width", "height"), SIZES[size])))
        settle(page)
        shot = screenshots / f"{spec.name}-{size}.png"
        page.screenshot(path=str(shot), full_page=True)
        SAVED.append(shot)
        wide, screen = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        clipped = page.evaluate(CLIPPED_BUTTONS)
        blocked = page.evaluate("window.cspBlocked")
        page.evaluate(CHARTS_DRAWN)
        violations = severe_violations(page, axe_script) if spec.axe else []
        said = list(page.said)
    finally:
        (own_context or page).close()
    problems = []
    if wide > screen + 1:
        problems.append(f"  the page is {wide} px wide on a {screen} px screen")
    if clipped:
        problems.append(f"  buttons past their table's visible edge (scrolled out of sight): {clipped}")
    if blocked:
        problems.append(f"  the Content-Security-Policy blocked: {blocked}")
    if violations:
        problems.append(describe(violations))
    if said:
        problems.append(f"  the console said ({len(said)}): " + "\n      ".join(sorted(set(said))[:8]))
    assert not problems, f"{spec.name} at {size} ({shot}):\n" + "\n".join(problems)


def test_a_live_page_reloads_itself_until_paused(contexts, sweep_site):
    """The contest board follows the round by reloading every 5 s (no <meta refresh>, which can't be
    paused); "Pause refreshing" stops it, and the pause outlasts a manual reload."""
    _, ids, _ = sweep_site
    page = contexts("olivia").new_page()
    try:
        page.goto(f"/contests/{ids['contest']}/board/")
        with page.expect_navigation(timeout=15000):  # the page reloads by itself
            pass
        page.get_by_role("button", name="Pause refreshing").click()
        page.evaluate("window.stillHere = true")
        page.wait_for_timeout(6000)
        assert page.evaluate("window.stillHere === true"), "the page reloaded while paused"
        page.reload()
        expect(page.get_by_role("button", name="Resume refreshing")).to_be_visible()
    finally:
        page.close()
