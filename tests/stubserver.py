"""A small threaded HTTP server on 127.0.0.1 (a random port) that answers POSTs from a callable: the one
base of the scripted stubs the tests, the benchmarks and local trials talk to (chat-completions servers,
webhooks). No Django here."""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class LoopbackServer:
    """``respond(path, headers, body) -> (status, payload, delay_s)``: ``headers`` a dict with lower-case
    names, ``body`` bytes; ``payload`` bytes or anything JSON-able. GETs are answered by
    ``respond_get(path)`` in the same form (404 without one). Use it as a context manager."""

    def __init__(self, respond, respond_get=None):
        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            wbufsize = -1  # the whole response in one write (headers and body apart meet the 40 ms delayed ACK)
            disable_nagle_algorithm = True

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                status, payload, delay = respond(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                self._send(status, payload, delay)

            def do_GET(self):
                status, payload, delay = respond_get(self.path) if respond_get else (404, {"error": "not found"}, 0)
                self._send(status, payload, delay)

            def _send(self, status, payload, delay):
                if delay:
                    time.sleep(delay)
                data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

            def log_message(self, *args):
                pass

        self.gets = []
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.root = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
