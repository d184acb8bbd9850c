"""bench._memdiag: the opt-in memory diagnostic of a server process (bench.soak --memdiag)."""

import json

import pytest

from bench import _memdiag as memdiag


class Kept:
    """Objects a 'leak' keeps, so the summary has a type to name."""


def test_it_is_off_unless_a_file_is_named(settings):
    settings.ARENA_MEMDIAG = ""
    assert memdiag.start_from_settings() is None


@pytest.mark.slow
def test_a_sample_names_what_grew_and_the_summary_shows_it(tmp_path):
    path = tmp_path / "memdiag.jsonl"
    sampler = memdiag.Sampler(str(path), interval_s=60, tracemalloc_on=False)
    sampler.sample()  # the start-up line
    sampler.sample()
    kept = [Kept() for _ in range(500)]
    line = sampler.sample()
    assert line["growth"][f"{__name__}.Kept"] == 500
    assert line["rss_mb"] > 0 and line["objects"] > 0 and line["blocks"] > 0
    assert {"threads", "pumps", "rate_clients"} <= set(line["held"])
    if line["malloc"] is not None:  # glibc: its own accounting beside RSS
        assert line["malloc"]["used_mb"] > 0
    if line["pymalloc"] is not None:
        assert line["pymalloc"]["arenas_mb"] >= 1
    lines = path.read_text().splitlines()
    assert len(lines) == 3 and json.loads(lines[-1])["types"][f"{__name__}.Kept"] == 500
    text = memdiag.summary(str(path))
    assert f"+500  {__name__}.Kept" in text and "rss_mb" in text
    del kept


@pytest.mark.slow
def test_tracemalloc_names_the_line_that_allocated(tmp_path):
    import tracemalloc

    path = tmp_path / "memdiag.jsonl"
    sampler = memdiag.Sampler(str(path), interval_s=60, tracemalloc_on=True)
    already = tracemalloc.is_tracing()
    tracemalloc.start(1)
    try:
        sampler.sample()
        kept = [bytearray(4096) for _ in range(256)]  # 1 MiB from this line
        line = sampler.sample()
    finally:
        if not already:
            tracemalloc.stop()
    grown = {where: kib for where, kib in line["traced"].items() if where.startswith(__file__)}
    assert grown and max(grown.values()) >= 1000
    del kept
