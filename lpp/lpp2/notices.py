"""What the platform itself tells an LPP2 page, in the only form the reference pages show: a ``message``
event. The reference judge page puts a line from its right-hand partner in its right pane and every other
line in its left pane; the confederate page shows every line. So a refusal comes back as a line "from" the
partner the refused line was addressed to (it lands in the pane where the judge typed it), its text
starting with ``[platform]``; the end of the contest's rounds brings the judges a line with their ranking
page's address. Programs (entries) get ``TargetError`` only: a line of the platform would read to them as
their partner's. Also the signed addresses of that ranking page."""

from __future__ import annotations

from django.core import signing

from lpp.protocol import lpp2 as wire

PLATFORM = "platform"  # the id of the platform's own lines where no partner is named
PREFIX = "[platform] "
RANK_SALT = "lpp.lpp2.rank"


def shows_notices(name: str) -> bool:
    """Whether ``name``'s page is a person's (judge, confederate, or an id the platform does not know):
    an entry's program gets no line of the platform."""
    return wire.role_of(name) != "ai"


def refused_line(*, sender: str, to, why: str, chars: int | None = None) -> str:
    """The ``message`` that shows the sender of a refused line that it was not delivered, and why."""
    addressee = to if isinstance(to, str) and wire.label_for(to) else PLATFORM
    size = f" ({chars:,} characters)" if chars else ""
    text = f"{PREFIX}Your line{size} was not delivered: {why}"
    return wire.dumps(wire.message_map(sender=addressee, to=sender[:40], content=text))


def rank_line(*, judge: str, url: str) -> str:
    """The ``message`` that offers a judge the platform's ranking page once every round is finished (the
    reference page's own final-score form cannot be sent)."""
    text = (
        f"{PREFIX}Every round is finished. Give your final ranks on the platform's ranking page: {url} "
        "(open it in a browser; the form on this page is not needed)."
    )
    return wire.dumps(wire.message_map(sender=PLATFORM, to=judge, content=text))


def rank_token(*, lpp2_id: int, name: str, secret_hash: str) -> str:
    """A judge's ranking address's token: signed with the platform's key, for this contest and judge, and
    void once the organiser changes that judge's secret."""
    return signing.dumps({"l": lpp2_id, "n": name, "h": secret_hash[:16]}, salt=RANK_SALT, compress=True)


def rank_token_read(token: str) -> dict | None:
    """The token's {"l": lpp2 id, "n": judge name, "h": secret hash prefix}, or None if it is not one."""
    try:
        value = signing.loads(token[:400], salt=RANK_SALT)
    except signing.BadSignature:
        return None
    return value if isinstance(value, dict) and {"l", "n", "h"} <= set(value) else None
