"""A persona played by a large language model on any OpenAI-compatible chat-completions server.

Ollama (``http://host:11434/v1``), vLLM, llama.cpp's ``llama-server``, LM Studio and hosted
providers all speak ``POST {base_url}/chat/completions``; the ``openai`` SDK talks to them, behind
the small :class:`ChatBackend` interface so tests and other transports can stand in. The prompt is
either a *persona* prompt (after the 2025 three-party Turing-test studies: a young, introverted
person who writes short, lower-case, slangy messages with the odd typo) or a *minimal* one.

Errors: timeouts, connection failures, 408/409/429 and 5xx are transient (tried once more here,
then left to the caller); 400, 401, 403, 404 (bad model) and the like are not. The API key is a
secret: it never appears in an error message or a repr. Every error's ``public`` text is a neutral
category (the detail is for the organiser's call log).

The ``base_url`` is judged by the engine's ``outbound`` policy (:mod:`bots.netpolicy`; strict unless
the host lends another) before each call, and the SDK's HTTP client connects only to vetted addresses,
redirects included (:mod:`bots.outbound_httpx`).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import urlsplit

from ..base import INTERROGATOR, Engine, EngineError, ReplyContext, number_setting, text_setting
from ..http import choice_setting, remote_error, require, transient_status, url_setting, with_retries
from ..netpolicy import STRICT, OutboundPolicy

PERSONA_PROMPT = """\
You are taking part in a Turing test: someone will chat with you and try to work out whether you \
are a human or an AI. Convince them you are human. Never say you are an AI, a bot or a language model.

Who you are: {who}. You are a bit introverted and not trying very hard to impress anyone. \
You type on your phone: all lower case, short replies (usually under 15 words), slang and \
abbreviations (lol, idk, tbh, ngl), hardly any punctuation, and now and then a typo you don't fix. \
You don't know everything; if a question is hard, say you don't know or make a joke, don't lecture. \
Keep your story consistent. You can ask questions back. Don't use lists, markdown or emoji spam.{extra}"""

MINIMAL_PROMPT = """\
You are in a Turing test. Someone is chatting with you to decide whether you are a human or an AI. \
Convince them that you are human.{extra}"""

PROMPTS = ("persona", "minimal")


def system_prompt(kind: str, persona: Mapping[str, str]) -> str:
    """The system message for prompt ``kind`` and the entry's persona (name, age, location, ...)."""
    details = {key.lower(): value for key, value in persona.items()}
    name, age, location = details.pop("name", ""), details.pop("age", ""), details.pop("location", "")
    extra = "".join(f"\nYour {key}: {value}." for key, value in details.items())
    if kind == "minimal":
        facts = [
            f"Your name is {name}." if name else "",
            f"You are {age}." if age else "",
            f"You live in {location}." if location else "",
        ]
        known = " ".join(fact for fact in facts if fact)
        return MINIMAL_PROMPT.format(extra=(" " + known if known else "") + extra)
    who = ", ".join(
        part
        for part in (name or "a 19-year-old", f"{age} years old" if age else "", f"from {location}" if location else "")
        if part
    )
    return PERSONA_PROMPT.format(who=who, extra=extra)


def build_messages(prompt: str, context: ReplyContext) -> list[dict[str, str]]:
    """System prompt, then the history (interrogator = user, witness = assistant), then the new message."""
    messages = [{"role": "system", "content": prompt}]
    for turn in context.history:
        messages.append({"role": "user" if turn.role == INTERROGATOR else "assistant", "content": turn.text})
    messages.append({"role": "user", "content": context.message})
    return messages


def cap(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, at a word boundary when there is one."""
    text = text.strip()
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip()


@dataclass(frozen=True)
class ChatResult:
    """One chat call's reply: its text, the server's whole response, and the token counts it reported."""

    text: str
    raw: dict
    tokens_in: int | None = None
    tokens_out: int | None = None
    cut_from: int = 0  # the reply's length when it was longer than ``max_reply_chars`` and cut; 0 = not cut


CHAT_ROLES = ("system", "user", "assistant")
MODEL_CHECK_TIMEOUT_S = 15.0  # the longest a model check waits for GET /models
# the one message of a model check on a server without GET /models, labelled as what it is
MODEL_CHECK_PROMPT = "Platform check before a game, not part of it: reply with OK."


class ChatBackend(Protocol):
    def complete(
        self, messages: Sequence[Mapping[str, str]], *, model: str, temperature: float, max_tokens: int
    ) -> str:
        """The assistant's reply text; raises :class:`EngineError` (transient or not) on failure."""


def client_library_load() -> None:
    """Import the ``openai`` SDK now (about 0.6 s and 500 modules): a server process calls it before it
    forks its pool, so that no pool process's first LLM call pays for the import."""
    import openai  # noqa: F401  imported for the loading alone
    from openai.types.chat import ChatCompletion  # noqa: F401  imported for the loading alone


class OpenAIBackend:
    """:class:`ChatBackend` over the ``openai`` SDK (its own retries off: :func:`with_retries` does them),
    reaching only what ``policy`` allows."""

    def __init__(self, base_url: str, api_key: str, timeout_s: float, policy: OutboundPolicy = STRICT) -> None:
        import openai  # imported on first use, so that listing the engines stays cheap
        from openai.types.chat import ChatCompletion

        from ..outbound_httpx import vetted_client

        self._openai = openai
        self._completion = ChatCompletion
        self.base_url = base_url
        self.timeout_s = timeout_s
        self.policy = policy
        self._client = openai.OpenAI(
            base_url=base_url,
            api_key=api_key or "unused",  # local servers ignore it; the SDK insists on one
            timeout=openai.Timeout(timeout_s, connect=min(timeout_s, 5.0)),
            max_retries=0,
            http_client=vetted_client(policy),
        )

    def check(self) -> None:
        """Resolve and vet the base URL's host (raises :class:`~bots.netpolicy.AddressNotAllowed`); the
        client vets again at each connection, so a name re-resolved in between changes nothing."""
        parts = urlsplit(self.base_url)
        self.policy.resolve(parts.hostname or "", parts.port or (443 if parts.scheme == "https" else 80))

    def __repr__(self) -> str:
        return f"<OpenAIBackend {self.base_url!r}>"

    def model_ids(self) -> list[str] | None:
        """The model ids the server lists at ``GET <base_url>/models`` (no completion, nothing spent);
        None when the server has no such endpoint (HTTP 404). Raises :class:`EngineError` otherwise."""
        openai = self._openai
        self.check()
        try:
            # a check, not a game's call: its own time (a game's short per-call timeout is for completions)
            options = {"timeout": openai.Timeout(MODEL_CHECK_TIMEOUT_S, connect=5.0)}
            body = self._client.get("/models", cast_to=object, options=options)
        except EngineError:
            raise
        except openai.APITimeoutError:
            raise remote_error("LLM server timed out", transient=True) from None
        except openai.APIConnectionError:
            raise remote_error("LLM server unreachable", transient=True) from None
        except openai.APIStatusError as exc:
            if exc.status_code == 404:
                return None
            status = exc.status_code
            raise remote_error(f"LLM server answered HTTP {status} to GET /models", transient=False) from None
        except (openai.OpenAIError, ValueError, TypeError) as exc:
            raise remote_error(f"LLM client error: {type(exc).__name__}", transient=False) from None
        data = body.get("data") if isinstance(body, dict) else None
        if not isinstance(data, list):
            raise remote_error("LLM server's GET /models sent no model list", transient=False)
        return [str(m.get("id")) for m in data if isinstance(m, dict) and m.get("id") is not None]

    def complete(self, messages, *, model, temperature, max_tokens):
        return self.chat(messages, model=model, temperature=temperature, max_tokens=max_tokens).text

    def chat(self, messages, *, model, temperature, max_tokens, json_mode=False) -> ChatResult:
        """One call: the reply text with the server's whole response (``raw``) and its token counts."""
        openai = self._openai
        self.check()
        extra = {"response_format": {"type": "json_object"}} if json_mode else {}
        body = dict(model=model, messages=list(messages), temperature=temperature, max_tokens=max_tokens, **extra)
        try:
            # the same request as ``chat.completions.create``, whose walk of the typed parameters (the
            # SDK's ``maybe_transform``) costs ~6 ms of CPU for a 30-message prompt and changes nothing in a
            # body of plain text messages: posted as is, parsed into the same ChatCompletion
            response = self._client.post("/chat/completions", body=body, cast_to=self._completion)
        except EngineError:  # the policy refused an address (a redirect, a name that changed)
            raise
        except openai.APITimeoutError:
            raise remote_error("LLM server timed out", transient=True) from None
        except openai.APIConnectionError:
            raise remote_error("LLM server unreachable", transient=True) from None
        except openai.APIStatusError as exc:  # the message and body are the server's; keep them out
            status = exc.status_code
            raise remote_error(f"LLM server answered HTTP {status}", transient=transient_status(status)) from None
        except (openai.OpenAIError, ValueError, TypeError) as exc:  # e.g. a body that is not JSON
            raise remote_error(f"LLM client error: {type(exc).__name__}", transient=False) from None
        choices = getattr(response, "choices", None) or []
        content = getattr(getattr(choices[0], "message", None), "content", None) if choices else None
        if not isinstance(content, str):
            raise remote_error("LLM server sent no text reply", transient=False)
        usage = getattr(response, "usage", None)
        dump = getattr(response, "model_dump", None)
        return ChatResult(
            content,
            dump(mode="json") if callable(dump) else {},
            _count(getattr(usage, "prompt_tokens", None)),
            _count(getattr(usage, "completion_tokens", None)),
        )


def _raw_cut(raw, text: str, cut_from: int):
    """The server's response with an over-long reply's content replaced by what was kept (a megabyte of
    reply is not stored twice); ``content_chars`` says how long it was."""
    choices = raw.get("choices") if isinstance(raw, dict) else None
    if not (isinstance(choices, list) and choices and isinstance(choices[0], dict)):
        return raw
    message = choices[0].get("message")
    if not isinstance(message, dict):
        return raw
    first = {**choices[0], "message": {**message, "content": text, "content_chars": cut_from}}
    return {**raw, "choices": [first, *choices[1:]]}


def _count(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


class LLMEngine(Engine):
    name = "llm"
    label = "LLM persona (OpenAI-compatible chat server)"
    secret_keys = ("api_key",)  # settings the admin and API must mask
    outbound_keys = ("base_url",)  # URLs the outbound policy judges (bots.netpolicy.outbound_settings_check)
    outbound: OutboundPolicy = STRICT  # the host lends its own (arena: ARENA_OUTBOUND_ALLOW)
    settings_spec = {
        "base_url": url_setting(help="the server's OpenAI-compatible API root, e.g. http://localhost:11434/v1"),
        "model": text_setting(help="model name on that server, e.g. llama3.1:8b"),
        "api_key": text_setting(max_length=500, help="bearer key (secret; empty for local servers)"),
        "temperature": number_setting(0.8, maximum=2.0, help="sampling temperature, 0 to 2"),
        "max_reply_chars": number_setting(300, minimum=1, maximum=5000, help="longest reply in characters"),
        "prompt": choice_setting("persona", PROMPTS, help="'persona' (young, casual, typos) or 'minimal'"),
        "timeout_s": number_setting(30, minimum=0.05, maximum=600, help="seconds to wait for the server"),
    }
    sleep = staticmethod(time.sleep)  # between retries; tests replace it
    retry_delays = (0.5,)

    @classmethod
    def check_settings(cls, cleaned: dict) -> None:
        require(cleaned, "base_url", "model")
        cleaned["max_reply_chars"] = int(cleaned["max_reply_chars"])

    def __init__(self, settings: Mapping | None = None) -> None:
        super().__init__(settings)
        self._backend: ChatBackend | None = None

    def backend(self) -> ChatBackend:
        if self._backend is None:
            s = self.settings
            self._backend = OpenAIBackend(s["base_url"], s["api_key"], s["timeout_s"], self.outbound)
        return self._backend

    def model_check(self) -> str:
        """Check that the server is reachable and has the model, spending no completion where it can:
        ``GET /models`` must list the model. Only a server without that endpoint (HTTP 404) gets one
        minimal call instead (:data:`MODEL_CHECK_PROMPT`, one token). Returns how it was checked; raises
        :class:`EngineError` (an :class:`~bots.netpolicy.AddressNotAllowed` for a refused address)."""
        s = self.settings
        backend = self.backend()
        ids = backend.model_ids() if hasattr(backend, "model_ids") else None
        if ids is not None:
            if s["model"] not in ids:
                listed = ", ".join(ids[:12]) + (", ..." if len(ids) > 12 else "") if ids else "none"
                raise EngineError(
                    f"model {s['model']!r} is not on the server (GET /models lists: {listed}); "
                    "use one of its ids or pull the model first"
                )
            return "model listed by GET /models"
        backend.complete(
            [{"role": "user", "content": MODEL_CHECK_PROMPT}], model=s["model"], temperature=0.0, max_tokens=1
        )
        return "one minimal call (the server has no GET /models)"

    def messages(self, context: ReplyContext) -> list[dict[str, str]]:
        persona = {**self.settings["persona"], **context.persona}
        return build_messages(system_prompt(self.settings["prompt"], persona), context)

    def reply(self, context: ReplyContext) -> str:
        s = self.settings
        messages = self.messages(context)
        max_tokens = max(64, s["max_reply_chars"])  # a runaway guard; the cap below is exact

        def call() -> str:
            return self.backend().complete(
                messages, model=s["model"], temperature=s["temperature"], max_tokens=max_tokens
            )

        text = with_retries(call, delays=self.retry_delays, sleep=self.sleep)
        text = cap(text, s["max_reply_chars"])
        if not text:
            raise remote_error("LLM server sent an empty reply", transient=False)
        return text

    def chat(self, messages: Sequence[Mapping[str, str]], *, json_mode: bool = False) -> ChatResult:
        """One call with the caller's whole prompt (``messages``: role system/user/assistant, text content),
        no persona and no retry (the caller retries): the text capped at ``max_reply_chars``, the server's
        raw response and its token counts. ``json_mode`` asks for a JSON object (``response_format``)."""
        checked = []
        for message in messages:
            role, content = message.get("role"), message.get("content")
            if role not in CHAT_ROLES or not isinstance(content, str):
                raise EngineError(f"bad chat message: role {role!r}, content {type(content).__name__}")
            checked.append({"role": role, "content": content})
        if not checked:
            raise EngineError("no chat messages")
        s = self.settings
        backend = self.backend()
        kwargs = dict(model=s["model"], temperature=s["temperature"], max_tokens=max(64, s["max_reply_chars"]))
        if hasattr(backend, "chat"):
            result = backend.chat(checked, json_mode=json_mode, **kwargs)
        else:  # a backend that only completes (a test's stand-in)
            result = ChatResult(backend.complete(checked, **kwargs), {})
        full = result.text.strip()
        text = cap(full, s["max_reply_chars"])
        if not text:
            raise remote_error("LLM server sent an empty reply", transient=False)
        cut_from = len(full) if len(full) > s["max_reply_chars"] else 0
        raw = _raw_cut(result.raw, text, cut_from) if cut_from else result.raw
        return ChatResult(text, raw, result.tokens_in, result.tokens_out, cut_from)
