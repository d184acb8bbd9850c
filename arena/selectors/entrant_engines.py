"""The engines an entrant may choose for an entry (the entry form's and the API's one list), each with
what it needs: the registry's engines with their own settings, and pull mode, which needs none."""

from dataclasses import dataclass

from arena.models import EXTERNAL_ENGINES
from arena.services.engines import engine_choices_list, engine_settings_help

ORGANISER_ONLY = ("lpp", "lpp2")  # legacy programs: an organiser sets them up with the bridge
PULL_NEEDS = (
    "no settings: your program asks the API for each judge message and posts its answer, "
    "with an API key from the API keys page (examples/pull_client.py)"
)


@dataclass(frozen=True)
class EngineOffer:
    name: str
    label: str
    needs: str  # what the entry needs to work, in a sentence


def _needs(engine: str) -> str:
    keys = engine_settings_help(engine=engine)
    if not keys:
        return "no settings: it runs on the platform"
    return "settings (JSON): " + "; ".join(f"{key}: {text}" if text else key for key, text in keys)


def entrant_engines() -> list[EngineOffer]:
    """Pull mode first (the engine of an entrant's own program), then the registry's engines."""
    offers = [EngineOffer("pull", EXTERNAL_ENGINES["pull"], PULL_NEEDS)]
    offers += [
        EngineOffer(name, label, _needs(name)) for name, label in engine_choices_list() if name not in ORGANISER_ONLY
    ]
    return offers


def entrant_engines_text() -> str:
    """The list as Markdown lines, for the API schema's description of ``engine``."""
    return "\n".join(f"- `{o.name}`: {o.label}; needs {o.needs}." for o in entrant_engines())
