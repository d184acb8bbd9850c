"""What most people would build: the Channels tutorial's chat (docs, tutorial parts 2 and 3), with
one ORM save() per message. A baseline of bench.chat_latency, installed only by bench.settings."""
