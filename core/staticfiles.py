"""/static/ served by WhiteNoise under daphne (SERVE_STATIC), with DEBUG on or off.

WhiteNoise's Django middleware, with two changes for this project:
- a missing STATIC_ROOT (no collectstatic was run: the files are found where they lie) is not warned about;
- under ASGI a file is handed to the server as an asynchronous iterator (read in a worker thread), as
  Django's own ASGIStaticFilesHandler does, instead of a synchronous one Django would warn about;
- the finders' files are indexed once per process, not once per middleware chain (every test client
  builds one: ~15 ms each).
"""

from __future__ import annotations

import os

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from whitenoise.middleware import WhiteNoiseMiddleware

_FINDER_FILES: dict[tuple, dict] = {}


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    def add_files_from_finders(self):
        key = (self.static_prefix, self.max_age, self.allow_all_origins, self.charset)
        if key not in _FINDER_FILES:
            files, self.files = self.files, {}
            super().add_files_from_finders()
            _FINDER_FILES[key], self.files = self.files, files
        self.files.update(_FINDER_FILES[key])

    def add_files(self, root, prefix=None):
        if self.autorefresh or os.path.isdir(root):
            super().add_files(root, prefix)

    def serve(self, static_file, request):
        response = super().serve(static_file, request)
        if isinstance(request, ASGIRequest) and response.streaming and not response.is_async:
            chunks = response.streaming_content

            async def read():
                for part in await sync_to_async(list)(chunks):
                    yield part

            response.streaming_content = read()
        return response
