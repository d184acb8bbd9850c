"""Times as people read them: the `when` filter's <time> element (a readable UTC fallback, an exact
ISO datetime for static/core/time.js), and no raw ISO timestamps with microseconds on the pages."""

import datetime as dt
import re

import pytest
from django.template import Context, Template

from core.templatetags.times import when

MOMENT = dt.datetime(2026, 11, 25, 13, 48, 15, 123456, tzinfo=dt.UTC)


@pytest.mark.parametrize(
    "value, style, html",
    [
        (
            MOMENT,
            "datetime",
            '<time datetime="2026-11-25T13:48:15.123Z" data-when="datetime">25 Nov 2026, 13:48:15 UTC</time>',
        ),
        (
            "2026-11-25T13:48:15.123456Z",
            "time",
            '<time datetime="2026-11-25T13:48:15.123Z" data-when="time">13:48:15 UTC</time>',
        ),
        (
            MOMENT.astimezone(dt.timezone(dt.timedelta(hours=2))),
            "minute",
            '<time datetime="2026-11-25T13:48:15.123Z" data-when="minute">25 Nov 2026, 13:48 UTC</time>',
        ),
        (MOMENT, "date", '<time datetime="2026-11-25T13:48:15.123Z" data-when="date">25 Nov 2026</time>'),
        (None, "datetime", ""),
        ("never", "datetime", "never"),
    ],
)
def test_the_when_filter_renders_a_time_element(value, style, html):
    assert when(value, style) == html


def test_the_filter_is_a_builtin_and_escapes_what_it_cannot_read():
    rendered = Template('{{ a|when }} {{ b|when:"time" }}').render(Context({"a": "<b>soon</b>", "b": MOMENT}))
    assert (
        rendered
        == '&lt;b&gt;soon&lt;/b&gt; <time datetime="2026-11-25T13:48:15.123Z" data-when="time">13:48:15 UTC</time>'
    )


RAW_ISO = re.compile(r">[^<]*\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{4,}")  # microseconds in text a person reads


def test_a_transcript_shows_readable_times_with_their_exact_moment(client, cast):
    from django.utils import timezone

    from arena import services
    from arena.models import Interrogation
    from tests.arena.helpers import sides, three_party

    interrogation = three_party(cast)
    human, _ = sides(interrogation)
    services.message_post(conversation_id=human.pk, sender_role="interrogator", text="Hello there", user=cast.jude)
    Interrogation.objects.filter(pk=interrogation.pk).update(published_at=timezone.now())
    page = client.get(f"/transcripts/{interrogation.public_id}/").content.decode()
    assert re.search(
        r'<time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z" data-when="time">\d\d:\d\d:\d\d UTC</time>', page
    )
    assert not RAW_ISO.search(page)
    assert "/static/core/time.js" in page
