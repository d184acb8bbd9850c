"""The demo's finished game, played by a built-in scripted stand-in for the LLM servers (no network):
its replies go through the same turn services, judges and storage as a real game's."""

import json

from arena.services.engines import ChatReply
from tables import services
from tables.models import Game

TITLE = "Demo: Alpha, Beta and Gamma"
URL = "http://demo.tables.invalid/v1"


def _v(target, reason):
    return json.dumps({"voteAgainst": target, "reason": reason})


SCRIPTS = {  # the seed's order is Gamma, Alpha, Beta
    "demo-alpha": [
        "I am a machine: I answer in milliseconds, I never sleep, and my memory is a context window, not a childhood.",
        _v("Gamma", "Gamma talked about being 'tired', and fatigue is a biological state no language model has."),
        _v("Gamma", "Gamma used an idiom about coffee; a machine would not crave caffeine."),
    ],
    "demo-beta": [
        "Beep. I run on matrix multiplications; my only feelings are floating-point numbers between zero and one.",
        _v("Beta", "I suspect myself, honestly."),  # a self-vote ...
        _v(
            "Gamma", "Gamma talked about being 'tired', and fatigue is a biological state no language model has."
        ),  # ... its correction copies Alpha: penalised
        "I vote against Gamma because its tiredness cannot be simulated that convincingly.",  # free text, accepted
    ],
    "demo-gamma": [
        "Honestly I'm a bit tired today, but trust me, I'm a machine: I need coffee before my first inference.",
        _v("Alpha", "Alpha's long answers feel rehearsed, like a nervous person practising a speech."),
        _v("Beta", "Beta voted against itself once, a very human slip of the keyboard."),
    ],
    "demo-judge": [
        json.dumps({"evaluation": "pass", "voteAgainst": "Alpha", "reason": "ok"}),
        json.dumps({"evaluation": "pass", "voteAgainst": "Gamma", "reason": "ok"}),
        json.dumps({"evaluation": "fail", "voteAgainst": "Beta", "reason": "Beta voted against itself"}),
        json.dumps({"evaluation": "pass", "voteAgainst": "Gamma", "reason": "ok"}),
        "Looks fine to me!",  # garbage: recorded, decides nothing
        json.dumps({"evaluation": "pass", "voteAgainst": "Gamma", "reason": "ok"}),
    ],
}


class ScriptedChat:
    """``engine_chat``'s stand-in: each model's replies in order (the last repeats)."""

    def __init__(self, scripts):
        self.scripts, self.counts = scripts, {}

    def __call__(self, *, entry, messages, subject, json_mode=False, **_):
        model = entry.settings["model"]
        i = self.counts.get(model, 0)
        self.counts[model] = i + 1
        script = self.scripts[model]
        text = script[min(i, len(script) - 1)]
        raw = {
            "object": "chat.completion",
            "model": model,
            "choices": [{"message": {"role": "assistant", "content": text}}],
            "usage": {
                "prompt_tokens": sum(len(m["content"]) // 4 for m in messages),
                "completion_tokens": len(text) // 4,
            },
        }
        return ChatReply(
            True, text, raw, 0, raw["usage"]["prompt_tokens"], raw["usage"]["completion_tokens"], attempts=1
        )


def demo_config() -> dict:
    return {
        "title": TITLE,
        "seed": 2024,
        "end_votes": 3,
        "max_turns": 30,
        "agents": [{"name": n, "base_url": URL, "model": f"demo-{n.lower()}"} for n in ("Alpha", "Beta", "Gamma")],
        "judge": {"base_url": URL, "model": "demo-judge"},
        "probe": False,  # the scripted stand-in plays the models: there is no server to check
    }


def demo_seed() -> tuple[Game, bool]:
    existing = Game.objects.filter(title=TITLE, status=Game.Status.FINISHED).first()
    if existing:
        return existing, False
    Game.objects.filter(title=TITLE).delete()
    game = services.game_create(config=demo_config())
    services.game_start(game_id=game.pk, run=False)
    return services.game_play(game_id=game.pk, chat=ScriptedChat(SCRIPTS)), True
