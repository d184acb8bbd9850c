"""Bot engines behind one interface (pure Python: importing this package imports no Django).

Interface: :mod:`bots.base` (Engine, ReplyContext, Turn, errors); lookup: :mod:`bots.registry`;
typing delay: :mod:`bots.typing_delay`; output cleaning: :mod:`bots.sanitize`.
"""
