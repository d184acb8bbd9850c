"""The reference pages' socket.io 1.4.5 client (npm's dist file, served at /scripts/socket.io-1.4.5.js) in
Chromium: Engine.IO 3, long-polling then the websocket upgrade, against the platform's /socket.io/. A
judge page and an ai page chat through a round the control-panel page runs."""

import json

import pytest

from lpp.lpp2.asgi import SCRIPT_PATH
from lpp.lpp2.services import lpp2_contest_setup

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SECRET = "alice"
CLIENT = """([name, secret]) => {
  window.lpp = {events: []};
  const socket = io(location.origin);
  for (const e of ["message", "control", "roundInformation", "recap", "AuthError", "TargetError"])
    socket.on(e, d => window.lpp.events.push([e, d]));
  window.lpp.send = (event, map) => { map.id = name; map.secret = secret; socket.emit(event, JSON.stringify(map)); };
  window.lpp.socket = socket;
  window.lpp.send("control", {status: "register"});
  window.lpp.send("control", {status: "roundInformation"});
}"""


def _page(browser, base, name):
    page = browser.new_context().new_page()
    page.goto(f"{base}{SCRIPT_PATH}")
    page.add_script_tag(url=f"{base}{SCRIPT_PATH}")
    page.evaluate(CLIENT, [name, SECRET])
    page.wait_for_function("window.lpp.events.some(e => e[0] === 'roundInformation')")
    return page


def _events(page, event):
    return [d for e, d in page.evaluate("window.lpp.events") if e == event]


def test_reference_client_pages_play_a_round(transactional_db, live_daphne, browser):
    lpp2_contest_setup(name="LPP2 pages", secret=SECRET)
    controller = _page(browser, live_daphne, "CONTROLLER")
    judge = _page(browser, live_daphne, "judge0")
    controller.evaluate("window.lpp.send('controller', {status: 'newRound'})")
    judge.wait_for_function("window.lpp.events.some(e => e[0] === 'control')")
    partners = json.loads(_events(judge, "control")[0])["partners"]
    ai_name = next(p for p in partners["judge0"] if p.startswith("ai"))
    ai = _page(browser, live_daphne, ai_name)
    controller.evaluate("window.lpp.send('controller', {status: 'startRound'})")
    ai.wait_for_function("window.lpp.events.some(e => e[0] === 'control')")
    judge.evaluate(f"window.lpp.send('message', {{to: {json.dumps(ai_name)}, content: 'Hello from 1.4.5'}})")
    ai.wait_for_function("window.lpp.events.some(e => e[0] === 'message')")
    assert json.loads(_events(ai, "message")[0]) == {
        "id": "judge0",
        "secret": "",
        "content": "Hello from 1.4.5",
        "to": ai_name,
    }
    ai.evaluate("window.lpp.send('message', {to: 'judge0', content: 'Hi <judge>'})")
    judge.wait_for_function("window.lpp.events.some(e => e[0] === 'message')")
    assert json.loads(_events(judge, "message")[0])["content"] == "Hi <judge>"
    # the 1.4.5 client upgraded from long-polling to the websocket
    assert judge.evaluate("window.lpp.socket.io.engine.transport.name") == "websocket"
    judge.evaluate(
        "window.lpp.send('control', {status: 'register'}); window.lpp.socket.emit('control', "
        "JSON.stringify({status: 'recap', id: 'judge0', secret: 'wrong'}))"
    )
    judge.wait_for_function("window.lpp.events.some(e => e[0] === 'AuthError')")
    assert _events(judge, "AuthError") == ["Invalid secret"]
    # the pages' other script, jQuery, is served at the reference's path too
    assert judge.evaluate("fetch('/scripts/jquery.min.js').then(r => r.text()).then(t => t.includes('jQuery'))")
