"""A scripted OpenAI-compatible chat-completions server on 127.0.0.1 (tests, the benchmark, local trials).

Each model has its own script: a list of steps, played in order (the last repeats). A step is the reply
text, or ``(status, text, delay_s)``, or a callable ``step(body) -> text`` (the request's JSON body).
Every request is recorded (model, messages, body). ``GET /v1/models`` lists the models of the scripts and
of every :meth:`ChatStub.config` made, plus ``models`` (``models_endpoint=False``: a server without it, 404).
"""

import json
import threading

from tests.stubserver import LoopbackServer

PROBE_MESSAGE = "Hello! How are you today?"  # arena.services.engines.PROBE_MESSAGE


def completion(text, model="stub"):
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
    }


def vote(target, reason):
    return json.dumps({"voteAgainst": target, "reason": reason})


class ChatStub(LoopbackServer):
    def __init__(
        self, scripts=None, default="I am a machine: I process tokens, not feelings.", models=(), models_endpoint=True
    ):
        self.scripts = {k: list(v) for k, v in (scripts or {}).items()}
        self.default = default
        self.requests, self.counts, self.probes = [], {}, 0
        self.listed = set(self.scripts) | set(models)
        self.model_lists = 0  # GET /v1/models answered
        self.lock = threading.Lock()
        super().__init__(self._respond, self._models if models_endpoint else None)
        self.url = f"{self.root}/v1"

    def _models(self, path):
        if path.rstrip("/") != "/v1/models":
            return 404, {"error": "not found"}, 0
        with self.lock:
            self.model_lists += 1
        return 200, {"object": "list", "data": [{"id": m, "object": "model"} for m in sorted(self.listed)]}, 0

    def _respond(self, path, headers, raw):
        body = json.loads(raw or b"{}")
        status, text, delay = self.step(body)
        return status, completion(text, body.get("model", "stub")) if status == 200 else {"error": "x"}, delay

    def step(self, body):
        model = body.get("model", "")
        messages = body.get("messages") or [{}]
        if messages[-1].get("content") == PROBE_MESSAGE:  # the command's probe: answered, the script kept
            self.probes += 1
            return 200, "Hello, I am here.", 0
        with self.lock:
            self.requests.append({"model": model, "messages": body.get("messages", []), "body": body})
            script = self.scripts.get(model)
            i = self.counts.get(model, 0)
            self.counts[model] = i + 1
        if not script:
            return 200, self.default, 0
        step = script[min(i, len(script) - 1)]
        if callable(step):
            step = step(body)
        if isinstance(step, tuple):
            return step
        return 200, step, 0

    def of(self, model):
        return [r for r in self.requests if r["model"] == model]

    def config(self, names=("Alpha", "Beta", "Gamma"), judge=None, **extra):
        """A game configuration whose agent named N plays model N on this stub (each listed by its models)."""
        self.listed |= set(names) | ({judge} if judge else set())
        return {
            "agents": [{"name": n, "base_url": self.url, "model": n} for n in names],
            "judge": {"base_url": self.url, "model": judge} if judge else None,
            "seed": 1,
            **extra,
        }
