"""A small local webhook endpoint for entries (bench.loebner_qualifying's): answers after a delay,
records each request's body (history included)."""

from bench.loebner_qualifying import endpoint


class SlowBot:
    def __init__(self, delay_s: float = 0.5):
        self.delay_s = delay_s
        self.requests: list[dict] = []

    def __enter__(self):
        self.server = endpoint(self.delay_s, self.requests)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


def webhook_settings(url: str) -> dict:
    return {"url": url, "secret": "s" * 20, "timeout_s": 10, "think_s": 0, "per_char_s": 0, "jitter": 0}
