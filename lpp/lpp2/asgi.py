"""/socket.io/ in front of the platform's ASGI application: Engine.IO 3 requests (``EIO=3``, socket.io
1.x/2.x clients such as the reference pages' 1.4.5) go to the python-socketio 4 server, every other one
to python-socketio 5 (Engine.IO 4); ``/scripts/socket.io-1.4.5.js`` and ``/scripts/jquery.min.js`` are
the npm files the reference pages load (kept in lpp/lpp2/vendor/, refetched by ``manage.py lpp2 fetch-client``);
everything else goes on."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs

SCRIPT_PATH = "/scripts/socket.io-1.4.5.js"
SCRIPTS = {SCRIPT_PATH: "socket.io-1.4.5.js", "/scripts/jquery.min.js": "jquery.min.js"}  # the reference pages' two


def scripts_dir() -> Path:
    from django.conf import settings

    return Path(settings.BASE_DIR) / "lpp" / "lpp2" / "vendor"


def script_file(name: str = "socket.io-1.4.5.js") -> Path:
    return scripts_dir() / name


def _is_socketio(path: str) -> bool:
    return path == "/socket.io" or path.startswith("/socket.io/")


async def _serve_script(send, name: str) -> None:
    path = script_file(name)
    if path.is_file():
        status, body, kind = 200, path.read_bytes(), b"application/javascript; charset=utf-8"
    else:
        status, kind = 404, b"text/plain; charset=utf-8"
        body = f"{name} is missing: run python manage.py lpp2 fetch-client\n".encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", kind),
                (b"content-length", str(len(body)).encode()),
                (b"access-control-allow-origin", b"*"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def lpp2_application(application):
    """Wrap the platform's ASGI application with the LPP2 endpoint."""
    import socketio
    import socketio_v4

    from lpp.lpp2.server import servers_build

    modern, legacy = servers_build()
    modern_app = socketio.ASGIApp(modern, socketio_path="socket.io")
    legacy_app = socketio_v4.ASGIApp(legacy, socketio_v4_path="socket.io")

    async def dispatch(scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            path = scope.get("path", "")
            if _is_socketio(path):
                query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
                target = legacy_app if query.get("EIO", [""])[0] == "3" else modern_app
                return await target(scope, receive, send)
            if path in SCRIPTS and scope["type"] == "http":
                return await _serve_script(send, SCRIPTS[path])
        return await application(scope, receive, send)

    return dispatch
