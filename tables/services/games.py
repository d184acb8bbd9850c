"""A game's configuration, creation and start.

The configuration (the command's CONFIG.json, the page's and the admin's forms)::

    {"agents": [{"name", "base_url", "model", "api_key"?, "temperature"?}], "judge": {"base_url", "model"} | null,
     "seed": S, "end_votes": 3, "max_turns": 60,
     "similarity_threshold": 0.75, "partial_threshold": 90, "timeout_s": 60, "probe": true}

Before a game is created every distinct server is checked (:func:`backends_check`: reachable, the
outbound policy allowing it, the model listed by ``GET /models``, no completion spent); a game whose
backends fail is refused with what failed and how to fix it, and nothing is created. ``"probe": false``
skips the check.

Every field is bounded and every refusal names the field. Agents and the judge become ``arena.Entry``
rows of the llm engine (one per server, model and temperature, shared across games, so the leaderboard
compares models), validated by the gateway (the outbound policy included)."""

import hashlib
import random
import secrets
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from arena.models import Entry
from arena.services.engines import engine_settings_validate, entry_model_check
from core.dispatch import enqueue_on_commit
from core.errors import InvalidInput
from tables.models import Agent, Game
from tables.rules.names import fold
from tables.rules.similarity import Thresholds

MAX_AGENTS = 12
NAME_CHARS = 40
KEYS = {
    "agents",
    "judge",
    "seed",
    "end_votes",
    "max_turns",
    "similarity_threshold",
    "partial_threshold",
    "timeout_s",
    "title",
    "probe",
}
AGENT_KEYS = {"name", "base_url", "model", "api_key", "temperature", "engine"}
# an agent's "engine": "llm" (the default: an OpenAI-compatible server) or "stub" (the built-in scripted
# player, bots.engines.tables_stub: no server, no network; for trying the format)
ENGINES = {"llm": "llm", "stub": "tables_stub"}
STUB_NAME = "tables: built-in stub player"


def _int(raw: dict, key: str, default, lo: int, hi: int) -> int:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise InvalidInput(f"{key}: a whole number from {lo} to {hi} is needed, not {value!r}"[:200])
    return value


def _float(raw: dict, key: str, default, lo: float, hi: float) -> float:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= value <= hi:
        raise InvalidInput(f"{key}: a number from {lo} to {hi} is needed, not {value!r}"[:200])
    return float(value)


def _backend(raw, where: str, *, named: bool) -> dict:
    if not isinstance(raw, dict):
        raise InvalidInput(f"{where}: an object is needed")
    unknown = set(raw) - AGENT_KEYS - ({"name"} if named else set())
    if unknown:
        raise InvalidInput(f"{where}: unknown key(s) {', '.join(sorted(map(str, unknown)))}"[:200])
    engine = raw.get("engine", "llm")
    if engine not in ENGINES or (engine == "stub" and not named):
        allowed = "llm" if not named else "llm or stub"
        raise InvalidInput(f"{where}.engine: {allowed} is needed, not {str(engine)[:40]!r}")
    if engine == "stub":
        extra = set(raw) - {"name", "engine"}
        if extra:
            raise InvalidInput(f"{where}: the stub player takes only name and engine, not {', '.join(sorted(extra))}")
        name = raw.get("name")
        if not isinstance(name, str) or not name.strip():
            raise InvalidInput(f"{where}.name: text is needed")
        name = name.strip()
        if len(name) > NAME_CHARS or not fold(name):
            raise InvalidInput(f"{where}.name: 1 to {NAME_CHARS} characters with a letter or digit")
        return {"name": name, "engine": "stub"}
    out = {}
    for key in ("base_url", "model") + (("name",) if named else ()):
        value = raw.get(key)
        if not isinstance(value, str) or not value.strip():
            raise InvalidInput(f"{where}.{key}: text is needed")
        out[key] = value.strip()
    if named:
        if len(out["name"]) > NAME_CHARS or not fold(out["name"]):
            raise InvalidInput(f"{where}.name: 1 to {NAME_CHARS} characters with a letter or digit")
    if not isinstance(raw.get("api_key", ""), str):
        raise InvalidInput(f"{where}.api_key: text is needed")
    out["api_key"] = raw.get("api_key", "")
    out["temperature"] = _float(raw, "temperature", 0.8, 0.0, 2.0)
    return out


def config_clean(raw) -> dict:
    """The configuration, checked and with its defaults; raises InvalidInput naming the bad field."""
    if not isinstance(raw, dict):
        raise InvalidInput("the configuration must be a JSON object")
    unknown = set(raw) - KEYS
    if unknown:
        raise InvalidInput(f"unknown key(s): {', '.join(sorted(map(str, unknown)))}"[:200])
    agents = raw.get("agents")
    if not isinstance(agents, list) or not 2 <= len(agents) <= MAX_AGENTS:
        raise InvalidInput(f"agents: a list of 2 to {MAX_AGENTS} agents is needed")
    cleaned = [_backend(a, f"agents[{i}]", named=True) for i, a in enumerate(agents)]
    folded = [fold(a["name"]) for a in cleaned]
    if len(set(folded)) != len(folded):
        raise InvalidInput("agents: two agents have the same name (case and punctuation aside)")
    judge = raw.get("judge")
    judge = None if judge is None else _backend(judge, "judge", named=False)
    seed = raw.get("seed", secrets.randbelow(2**31))
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise InvalidInput("seed: a whole number from 0 to 2**63-1 is needed")
    config = {
        "title": str(raw.get("title", ""))[:200],
        "agents": cleaned,
        "judge": judge,
        "seed": seed,
        "end_votes": _int(raw, "end_votes", 3, 1, 100),
        "max_turns": _int(raw, "max_turns", 60, len(cleaned), 2000),
        "similarity_threshold": _float(raw, "similarity_threshold", 0.75, 0.01, 1.0),
        "partial_threshold": _float(raw, "partial_threshold", 90.0, 1.0, 100.0),
        "timeout_s": _float(raw, "timeout_s", 60.0, 0.05, 600.0),
        "probe": raw.get("probe", True),
    }
    if not isinstance(config["probe"], bool):
        raise InvalidInput("probe: true or false is needed")
    Thresholds(config["similarity_threshold"], config["partial_threshold"]).check()
    return config


def turn_order(names: list[str], seed: int) -> list[str]:
    """The turn order: a shuffle drawn from the seed alone (the same seed, the same order)."""
    order = list(names)
    random.Random(seed).shuffle(order)
    return order


def entry_for(backend: dict, *, timeout_s: float, where: str) -> Entry:
    """The llm entry of this server, model and temperature (created once, shared by games); the one entry
    of the built-in stub player for ``"engine": "stub"``."""
    if backend.get("engine") == "stub":
        entry, _ = Entry.objects.get_or_create(
            display_name=STUB_NAME, defaults={"engine": ENGINES["stub"], "settings": {}}
        )
        return entry
    settings = {
        "base_url": backend["base_url"],
        "model": backend["model"],
        "api_key": backend["api_key"],
        "temperature": backend["temperature"],
        "max_reply_chars": 2000,
        "prompt": "minimal",
        "timeout_s": timeout_s,
    }
    try:
        settings = engine_settings_validate(engine="llm", settings=settings)
    except (KeyError, ValueError) as exc:
        raise InvalidInput(f"{where}: {exc}"[:700]) from None
    key = hashlib.sha256(
        f"{backend['base_url']}|{backend['api_key']}|{timeout_s}|{backend['temperature']}".encode()
    ).hexdigest()[:8]
    name = f"{backend['model'][:60]} @ {key}"
    entry, _ = Entry.objects.get_or_create(
        display_name=f"tables: {name}"[:100], defaults={"engine": "llm", "settings": settings}
    )
    return entry


def public_config(config: dict) -> dict:
    """The configuration as stored and exported: no API keys."""

    def strip(b):
        return {k: v for k, v in b.items() if k != "api_key"}

    return {
        **config,
        "agents": [strip(a) for a in config["agents"]],
        "judge": strip(config["judge"]) if config["judge"] else None,
    }


def backends_check(targets: list[tuple[str, Entry]]) -> list[str]:
    """Each distinct backend of ``targets`` (label, entry) checked once (:func:`entry_model_check`): one
    line per failure, naming the agent (or judge), its server and model, what failed and how to fix it."""
    failures, seen = [], set()
    for label, entry in targets:
        if entry.pk in seen:
            continue
        seen.add(entry.pk)
        result = entry_model_check(entry=entry)
        if not result["ok"]:
            s = entry.settings
            failures.append(f"{label} ({s.get('base_url')}, model {s.get('model')}): {result['error']}")
    return failures


class BackendsFailed(InvalidInput):
    """The game's backends failed the check before the start: the message says which, what failed and how
    to fix it (one line each)."""


@dataclass(frozen=True)
class Prepared:
    """A configuration cleaned, its entries found or created and its backends checked: what
    :func:`game_create` makes a game of."""

    config: dict
    entries: list
    judge: Entry | None


def game_prepare(*, config) -> Prepared:
    """The configuration cleaned (:func:`config_clean`) with its entries; with ``probe`` (the default) its
    backends checked, a failure refused (:class:`BackendsFailed`) before any game exists."""
    config = config_clean(config)
    entries = [
        entry_for(a, timeout_s=config["timeout_s"], where=f"agents[{i}] ({a['name']})")
        for i, a in enumerate(config["agents"])
    ]
    judge = entry_for(config["judge"], timeout_s=config["timeout_s"], where="judge") if config["judge"] else None
    if config["probe"]:
        targets = [(f"agent {a['name']}", e) for a, e in zip(config["agents"], entries)]
        failures = backends_check(targets + ([("judge", judge)] if judge else []))
        if failures:
            raise BackendsFailed(
                "The game was not started: "
                + ("its backends failed the check" if len(failures) > 1 else "a backend failed the check")
                + ".\n"
                + "\n".join(failures)
            )
    return Prepared(config, entries, judge)


def game_create(*, config=None, user=None, prepared: Prepared | None = None) -> Game:
    """A pending game from a configuration, or from what :func:`game_prepare` made of one (the admin's form
    prepares while it validates); refused as :func:`game_prepare` refuses."""
    prepared = prepared or game_prepare(config=config)
    config, entries, judge = prepared.config, prepared.entries, prepared.judge
    names = [a["name"] for a in config["agents"]]
    order = turn_order(names, config["seed"])
    with transaction.atomic():
        game = Game.objects.create(
            title=config["title"],
            config=public_config(config),
            seed=config["seed"],
            order=order,
            end_votes=config["end_votes"],
            max_turns=config["max_turns"],
            similarity_threshold=config["similarity_threshold"],
            partial_threshold=config["partial_threshold"],
            judge=judge,
            created_by=user if getattr(user, "is_authenticated", False) else None,
        )
        by_name = dict(zip(names, entries))
        Agent.objects.bulk_create([Agent(game=game, entry=by_name[n], name=n, position=i) for i, n in enumerate(order)])
    return game


def game_start(*, game_id: int, run: bool = True) -> Game:
    """Mark the game running and enqueue its first turn on commit (``run`` False: the caller plays it)."""
    from tables.tasks import turn_task

    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status != Game.Status.PENDING:
            return game
        game.status = Game.Status.RUNNING
        game.started_at = timezone.now()
        game.save(update_fields=["status", "started_at"])
        if run:
            enqueue_on_commit(turn_task, game.pk, 0)
    from tables import notify

    notify.game_changed(game)
    return game
