import os

import pytest

# The benchmarks create and drop their own database on the PostgreSQL server and use a private
# channel-layer prefix on the Redis server that DATABASE_URL and REDIS_URL name.
services_only = [
    pytest.mark.slow,
    pytest.mark.redis,
    pytest.mark.skipif(not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")),
                       reason="needs DATABASE_URL and REDIS_URL (services mode)"),
]
