"""Built-in engines; each module is registered by name in :mod:`bots.registry`."""
