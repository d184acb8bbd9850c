"""The permissions matrix (tests/hardening/matrix.py): every route of the URLconf and of the websocket
router has a row, and every role gets exactly what its cell says."""

import json

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve

from tests.conftest import FAST, make_user

from .matrix import BODIES, LISTS, QUERIES, ROLES, rows

# --- the routes ----------------------------------------------------------------------------------


def _join(prefix: str, route: str) -> str:
    """Routes joined as Django joins them into ``ResolverMatch.route`` (an inner regex loses its ^)."""
    return prefix + route.removeprefix("^") if prefix else route


def _walk(patterns, prefix=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, _join(prefix, str(pattern.pattern)))
        elif isinstance(pattern, URLPattern):
            yield _join(prefix, str(pattern.pattern)), pattern.callback


def http_routes() -> dict:
    """route -> view of every HTTP route but the admin's (which the table covers as a group)."""
    return {route: view for route, view in _walk(get_resolver().url_patterns) if not route.startswith("admin/")}


def websocket_routes() -> list:
    from config.routing import websocket_urlpatterns

    return list(websocket_urlpatterns)


def _same_view(a, b) -> bool:
    return getattr(a, "cls", a) is getattr(b, "cls", b) and getattr(a, "actions", None) == getattr(b, "actions", None)


SAMPLE = {  # any value of the right shape, to resolve a row's path without building anything
    "interrogation": "00000000-0000-4000-8000-000000000001",
    "conversation": "00000000-0000-4000-8000-000000000002",
    "pull_conversation": "00000000-0000-4000-8000-000000000003",
    "published": "00000000-0000-4000-8000-000000000004",
    "game": "00000000-0000-4000-8000-000000000005",
    "finished_game": "00000000-0000-4000-8000-000000000006",
    "open_game": "00000000-0000-4000-8000-000000000007",
    "study_game": "00000000-0000-4000-8000-000000000008",
    "rehearsal": "00000000-0000-4000-8000-000000000009",
    "apikey": "1",
    "study": "1",
    "entry": "1",
    "experiment": "1",
    "run": "1",
    "aggregate": "1",
    "wager_session": "1",
    "wager_trial": "1",
    "contest": "1",
    "tables_game": "1",
    "xmarket": "00000000-0000-4000-8000-00000000000a",
}


def test_every_route_has_a_row():
    """A new URL, API endpoint or websocket route fails here until the matrix says who may open it."""
    missing, ws_missing, admin_rows = uncovered_routes()
    assert not missing, f"routes without a row in tests/hardening/matrix.py: {missing}"
    assert admin_rows >= 2, "the admin's index and one changelist"
    assert not ws_missing, f"websocket routes without a row: {ws_missing}"


def test_a_new_page_without_a_row_is_caught(settings):
    settings.ROOT_URLCONF = "tests.hardening.urls_with_a_new_page"
    assert uncovered_routes()[0] == ["reports/<int:pk>/"]


def uncovered_routes():
    """(HTTP routes, websocket routes) no row covers, and the number of admin rows."""
    covered, admin_rows = set(), 0
    ws_covered = set()
    ws_patterns = websocket_routes()
    for row in rows():
        path = row.path.format(**SAMPLE)
        if row.websocket:
            matches = [p for p in ws_patterns if p.pattern.match(path.lstrip("/"))]
            assert matches, f"{row.request}: no websocket route"
            ws_covered.add(str(matches[0].pattern))
        elif path.startswith("/admin/"):
            admin_rows += 1
        else:
            covered.add(resolve(path.split("?")[0]).route)
    routes = http_routes()
    missing = []
    for route, view in routes.items():
        if route in covered:
            continue
        # DRF's format-suffix twins (``.json``) are the same view as a covered route
        if "format>" in route and any(_same_view(view, routes[c]) for c in covered if c in routes):
            continue
        missing.append(route)
    ws_missing = [str(p.pattern) for p in ws_patterns if str(p.pattern) not in ws_covered]
    return missing, ws_missing, admin_rows


# --- the world the rows' placeholders name ----------------------------------------------------------


def build_world(cast):
    """Users by role, and the objects of the placeholders (see matrix.py's docstring)."""
    from rest_framework.authtoken.models import Token

    from arena import roles, services
    from arena.models import Entry, Message
    from lambdastar import services as lambdastar_services
    from lambdastar.models import Aggregate
    from markets import services as markets
    from tables.demo import demo_seed

    betty = make_user("betty", roles.BETTOR)
    ada, bob = make_user("ada", roles.ENTRANT), make_user("bob", roles.ENTRANT)
    users = {
        "anon": None,
        "outsider": cast.oscar,
        "judge": cast.jude,
        "judge2": cast.june,
        "confed": cast.connie,
        "bettor": betty,
        "entrant": ada,
        "entrant2": bob,
        "organiser": cast.olivia,
    }
    tokens = {role: Token.objects.create(user=user).key for role, user in users.items() if user is not None}

    entry = Entry.objects.create(owner=ada, display_name="Ada-program", engine="pull", settings={})
    Entry.objects.create(owner=bob, display_name="Bob's bot", engine="simple", settings=dict(FAST))
    interrogation = services.interrogation_create(judge=cast.jude, witnesses=[cast.connie, entry], title="live")
    services.interrogation_start(interrogation_id=interrogation.pk)
    conversation = interrogation.conversations.get(witness_human=cast.connie)
    pull_conversation = interrogation.conversations.get(witness_entry=entry)
    services.message_post(
        conversation_id=pull_conversation.pk,
        sender_role=Message.Role.INTERROGATOR,
        text="Are you there?",
        user=cast.jude,
    )

    published = services.interrogation_create(judge=cast.jude, witnesses=[cast.connie, cast.simple], title="done")
    services.interrogation_start(interrogation_id=published.pk)
    services.interrogation_end(interrogation_id=published.pk, reason="judge", by=cast.jude)
    services.verdict_submit(interrogation_id=published.pk, judge=cast.jude, choice="left", confidence=60)
    services.interrogation_publish(interrogation_id=published.pk)

    def game(humans=(), entries=(), join=(), start=True):
        g = markets.game_create(title="matrix", humans=list(humans), entries=list(entries), max_bettors=8)
        markets.game_open(game_id=g.pk)
        for user in join:
            markets.game_join(game_id=g.pk, user=user)
        if start:
            markets.game_start(game_id=g.pk)
        return g

    running = game(humans=[cast.connie], join=[betty])
    finished = game(humans=[cast.connie], join=[betty])
    markets.game_settle(game_id=finished.pk, force=True)
    open_game = game(entries=[cast.simple], start=False)
    xmarket = markets.xmarket_open(interrogation_id=interrogation.pk, delay_s=60)

    configuration = {
        "rules": "paper",
        "rng": "pcg64",
        "episodes": 4,
        "types": ["ls", "random"],
        "iterations": 10,
        "grid": 5,
        "chunk_episodes": 2,
    }
    experiment = lambdastar_services.experiment_create(
        owner=ada, name="Ada-experiment", configuration=configuration, seed=1
    )
    lambdastar_services.experiment_launch(experiment_id=experiment.pk, enqueue=False)
    run = experiment.runs.first()
    aggregate = Aggregate.objects.create(
        run=run, agent_type="ls", episodes=4, mean=0.1, std=0.2, sem=0.1, ci_low=-0.1, ci_high=0.3
    )
    from arena.services.apikeys import apikey_create
    from arena.services.rehearsals import rehearsal_start

    rehearsal = rehearsal_start(entry=entry, user=ada, judge="self")
    apikey = apikey_create(user=ada, name="matrix").api_key
    from tournaments.wager.models import Committee
    from tournaments.wager.services import session_create as wager_session_create

    wager = wager_session_create(
        committee=Committee.objects.create(name="matrix committee"),
        title="matrix wager",
        computer=cast.simple,
        judges=[cast.jude],
        foils=[cast.connie],
        starts_at=published.created_at,
        called_by="x",
        called_by_kind="member",
        funded_by="x",
        trials=1,
        interview_minutes=5,
        rehearsal=True,
    )
    from tournaments.loebner.models import Contest, Participant

    contest = Contest.objects.create(name="Matrix Prize", format_name="2009-rules", status=Contest.Status.OPEN)
    Participant.objects.create(contest=contest, label="J1", kind=Participant.Kind.JUDGE, user=cast.jude)
    study, study_game = _study_world()
    ids = {
        "contest": contest.pk,
        "study": study.pk,
        "study_game": study_game.public_id,
        "interrogation": interrogation.public_id,
        "conversation": conversation.public_id,
        "pull_conversation": pull_conversation.public_id,
        "published": published.public_id,
        "game": running.public_id,
        "finished_game": finished.public_id,
        "open_game": open_game.public_id,
        "xmarket": xmarket.game.public_id,
        "entry": entry.pk,
        "experiment": experiment.pk,
        "run": run.pk,
        "aggregate": aggregate.pk,
        "wager_session": wager.pk,
        "wager_trial": wager.trials.get().pk,
        "tables_game": demo_seed()[0].pk,
        "rehearsal": rehearsal.public_id,
        "apikey": apikey.pk,
    }
    return users, tokens, {key: str(value) for key, value in ids.items()}


def _study_world():
    """An open study on /play/ and a game of one of its (simulated) players."""
    from studies import services as studies

    config = {
        "format": "two-party",
        "minutes": 5,
        "seed": 1,
        "human_witness_share": 0.0,
        "games_per_participant": 4,
        "witnesses": [{"name": "Matrix-AI", "engine": "simple", "settings": dict(FAST)}],
    }
    study = studies.study_load(config=config, status="open")
    player = studies.participant_create(study=study, simulated=True)
    studies.consent_give(participant=player, agreed=True)
    studies.survey_submit(participant=player, phase="demographics", answers={})
    from tests.studies.helpers import game_for

    return study, game_for(player)


def _fill(value, ids):
    if isinstance(value, str):
        return value.format(**ids)
    if isinstance(value, dict):
        return {k: _fill(v, ids) for k, v in value.items()}
    return value


def _cell_of_response(response) -> str:
    if response.status_code == 302:
        location = response["Location"]
        if location.startswith("/accounts/login/"):
            return "login"
        if location.startswith("/admin/login/"):
            return "admin"
    return str(response.status_code)


def http_outcome(row, role, users, tokens, ids) -> str:
    path = row.path.format(**ids)
    body = _fill(BODIES.get(row.request), {**ids, "role": role})
    if path.startswith("/api/"):
        client = Client(**({"HTTP_AUTHORIZATION": f"Token {tokens[role]}"} if role in tokens else {}))
    else:
        client = Client()
        if users[role] is not None:
            client.force_login(users[role])
    kwargs = {"data": json.dumps(body), "content_type": "application/json"} if body is not None else {}
    if row.method == "GET":
        kwargs = {"data": QUERIES.get(row.request, {})}
    response = getattr(client, row.method.lower())(path, **kwargs)
    text = b"".join(response.streaming_content) if getattr(response, "streaming", False) else response.content
    cell = _cell_of_response(response)
    if row.request in LISTS and cell == "200":
        marker, allowed = LISTS[row.request]
        shown = marker.format(**ids) in text.decode()
        if shown != (role in allowed):
            return f"200, {'listing' if shown else 'not listing'} {marker.format(**ids)!r}"
    return cell


def _mismatches(results) -> str:
    lines = [f"  {request:55} {role:10} expected {want:6} got {got}" for request, role, want, got in results]
    return "cells that differ from tests/hardening/matrix.py:\n" + "\n".join(lines)


@pytest.mark.slow  # every page and endpoint for every role: minutes
@pytest.mark.django_db(transaction=True)  # the long poll is async: its database calls run on other threads
def test_pages_and_api_follow_the_matrix(cast, end_stray_sessions):
    users, tokens, ids = build_world(cast)
    wrong = []
    for row in rows():
        if row.websocket:
            continue
        for role in ROLES:
            got = http_outcome(row, role, users, tokens, ids)
            if got != row.expected[role]:
                wrong.append((row.request, role, row.expected[role], got))
    assert not wrong, _mismatches(wrong)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
async def test_websockets_follow_the_matrix(cast, end_stray_sessions):
    from tests.arena.wsclient import connect

    users, _, ids = await sync_to_async(build_world)(cast)
    wrong = []
    for row in rows():
        if not row.websocket:
            continue
        for role in ROLES:
            socket, accepted, code = await connect(row.path.format(**ids), users[role])
            if accepted:
                state = await socket.receive()
                got = "ws" if state.get("type") in ("state", "progress") else f"ws, then {state}"
                await socket.close()
            else:
                got = str(code)
            if got != row.expected[role]:
                wrong.append((row.request, role, row.expected[role], got))
    assert not wrong, _mismatches(wrong)
