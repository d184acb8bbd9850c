"""Entries: registration by entrants, and engine secrets that are never shown back.

An engine declares its secret settings keys in ``secret_keys`` (llm: ``api_key``, webhook:
``secret``). Forms and API answers show them as :data:`MASK`; a submitted value equal to the mask
means "keep the stored one".
"""

from django.core.exceptions import ValidationError
from django.db import transaction

from arena import roles
from arena.models import EXTERNAL_ENGINES, Entry
from core.errors import InvalidInput, NotAllowed

MASK = "********"


def secret_keys(engine: str) -> tuple[str, ...]:
    from arena.services.engines import engine_secret_keys

    return engine_secret_keys(engine=engine)


def settings_masked(engine: str, settings) -> dict:
    """A copy of ``settings`` with every non-empty secret replaced by the mask."""
    if not isinstance(settings, dict):
        return settings
    return {key: MASK if key in secret_keys(engine) and value else value for key, value in settings.items()}


def settings_unmasked(engine: str, submitted, stored) -> dict:
    """``submitted`` with masked secrets put back from ``stored``."""
    if not isinstance(submitted, dict):
        return submitted
    stored = stored if isinstance(stored, dict) else {}
    return {
        key: stored.get(key, "") if key in secret_keys(engine) and value == MASK else value
        for key, value in submitted.items()
    }


def _unstorable(value) -> bool:
    """Whether a JSON value holds text no database stores: a NUL (PostgreSQL) or a lone surrogate."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and ("\x00" in item or any("\ud800" <= ch <= "\udfff" for ch in item)):
            return True
    return False


def entry_settings_clean(*, engine: str, settings) -> dict:
    """An entry's settings, validated by its engine with the defaults filled in; raises ValidationError
    naming the field ("engine" or "settings"). External engines (pull, lpp) keep any JSON object."""
    from arena.services.engines import engine_settings_validate

    if _unstorable(settings):
        raise ValidationError({"settings": "Settings may not contain NUL characters or lone surrogates."})
    if engine in EXTERNAL_ENGINES:
        if not isinstance(settings, dict):
            raise ValidationError({"settings": "Settings must be a JSON object."})
        return settings
    try:
        return engine_settings_validate(engine=engine, settings=settings or {})
    except KeyError as exc:
        raise ValidationError({"engine": f"Unknown engine {engine!r}."}) from exc
    except ValueError as exc:
        raise ValidationError({"settings": str(exc)}) from exc


def entry_register(*, owner, display_name: str, engine: str, settings: dict | None = None) -> Entry:
    """An entrant registers an entry (any registry engine, or pull mode); settings validated by the engine."""
    if not roles.has_role(owner, roles.ENTRANT):
        raise NotAllowed("Only entrants can register entries.")
    if engine in EXTERNAL_ENGINES and engine != "pull":
        raise InvalidInput(f"Engine {engine!r} is set up by organisers only.")
    entry = Entry(owner=owner, display_name=display_name, engine=engine, settings=settings or {})
    try:
        entry.settings = entry_settings_clean(engine=engine, settings=entry.settings)
        entry.full_clean()
    except ValidationError as exc:
        raise InvalidInput("; ".join(f"{field}: {' '.join(msgs)}" for field, msgs in exc.message_dict.items())) from exc
    with transaction.atomic():
        entry.save()
    return entry
