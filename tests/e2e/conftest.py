import os
import shutil

import pytest
from playwright.sync_api import expect

# What a page shows once the server has pushed it comes at once; a longer wait than Playwright's 5 s
# costs a passing test nothing and spares a loaded 2-core machine false failures.
expect.set_options(timeout=10_000)

CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium driven by Playwright (module scope: a session-scoped sync Playwright fixture breaks every
    later asyncio test)."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"Chromium not found at {CHROMIUM}: `make test` installs Debian's chromium package")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def login(browser, base_url, username, password):
    context = browser.new_context()
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{base_url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("#login-submit")
    page.wait_for_url(f"{base_url}/")
    page.js_errors = errors
    return page
