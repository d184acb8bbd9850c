"""Building a loaded model instance on an append's path: Django's ``Model.from_db`` against the model's
constructor plus ``_state`` set by hand.

    .venv/bin/python -m bench.model_loading [--number 10000] [--repeat 5]

No services needed (nothing touches the database). The conversation (7 of its 12 fields) and the message
(every field) an append returns (``arena.services.appends.conversation_loaded`` / ``message_loaded``) are
built --number times, --repeat runs of each, the two ways interleaved; printed: the median and the best
run per way (the machine may be shared: the best run moves less with other load). The LAST line is one
JSON object {"conversation": {"from_db_ms", "constructor_ms"}, "message": {...}} of the medians.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import timeit
import uuid

from bench.results import add_options, record_if_asked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--number", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = add_options(parser).parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.db import DEFAULT_DB_ALIAS

    from arena.models import Conversation, Message
    from arena.services.appends import conversation_loaded, message_loaded

    def constructed(model, fields):
        obj = model(**fields)
        obj._state.adding, obj._state.db = False, DEFAULT_DB_ALIAS
        return obj

    conversation = dict(
        id=1,
        public_id=uuid.uuid4(),
        side="left",
        interrogator_id=2,
        witness_human_id=3,
        witness_entry_id=None,
        interrogation_id=4,
    )
    message = dict(
        id=1,
        conversation_id=1,
        seq=3,
        sender_role="interrogator",
        text="What did you have for breakfast?",
        created_at=dt.datetime.now(dt.UTC),
        prev_hash="a" * 64,
        hash="b" * 64,
    )
    cases = {
        ("conversation", "from_db_ms"): lambda: conversation_loaded(**conversation),
        ("conversation", "constructor_ms"): lambda: constructed(Conversation, conversation),
        ("message", "from_db_ms"): lambda: message_loaded(**message),
        ("message", "constructor_ms"): lambda: constructed(Message, message),
    }
    runs: dict[tuple, list[float]] = {case: [] for case in cases}
    for _ in range(args.repeat):
        for case, build in cases.items():
            runs[case].append(timeit.timeit(build, number=args.number) * 1e3)
    out: dict[str, dict[str, float]] = {}
    for (model, way), times in runs.items():
        median = statistics.median(times)
        print(f"{model:12s} {way:15s} median {median:7.1f} ms  best {min(times):7.1f} ms  per {args.number:,}")
        out.setdefault(model, {})[way] = round(median, 1)
    print(json.dumps(out))
    record_if_asked("model_loading", out, args)


if __name__ == "__main__":
    main()
