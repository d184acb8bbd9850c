"""A small local webhook endpoint for entries: answers after a delay, records each request's history."""
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class SlowBot:
    def __init__(self, delay_s: float = 0.5):
        self.delay_s = delay_s
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with owner.lock:
                    owner.requests.append(body)
                time.sleep(owner.delay_s)
                turns = len(body["history"])
                data = json.dumps({"reply": f"{body['conversation'][-6:]} heard {turns} turns: {body['message'][:40]}"}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"

    def __enter__(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


def webhook_settings(url: str) -> dict:
    return {"url": url, "secret": "s" * 20, "timeout_s": 10, "think_s": 0, "per_char_s": 0, "jitter": 0}
