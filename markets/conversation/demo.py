"""Demo crowd markets on conversations, for a first look (`make run`): one settled a moment ago, with
its trades, its judge's verdict and its transcript, and one live for an hour. Idempotent."""

from django.contrib.auth import get_user_model
from django.db import transaction

from arena import services as arena_services
from arena.models import Entry, Interrogation, Status
from arena.services.engines import engine_ask, reply_context_build
from markets.conversation.services import xmarket_open, xmarket_sync, xmarket_trade
from markets.demo import DEMO_BETTORS

ENDED_TITLE = "Crowd market demo: an ended conversation"
LIVE_TITLE = "Crowd market demo: a live conversation"
# the judge's questions, and the human witness's answers; the machine witness answers with its own engine
QUESTIONS = ("Hi! What did you have for breakfast?", "What is 3 times 17?")
HUMAN_ANSWERS = ("Toast and far too much coffee. You?", "51, I think, why?")


def _machine_answer(conversation, history, question) -> str:
    """The machine witness's own reply, through the engine gateway (the demo's engines are local)."""
    context = reply_context_build(key=str(conversation.public_id), history=history, message=question)
    result = engine_ask(entry=conversation.witness_entry, context=context)
    return result.text if result.ok and result.text else "Sorry, could you say that again?"


def _talk(interrogation, judge, human) -> None:
    for conversation in interrogation.conversations.select_related("witness_entry"):
        history = []
        for question, human_answer in zip(QUESTIONS, HUMAN_ANSWERS):
            arena_services.message_post(
                conversation_id=conversation.pk, sender_role="interrogator", text=question, user=judge
            )
            if conversation.witness_human_id:
                answer, user = human_answer, human
            else:
                answer, user = _machine_answer(conversation, history, question), None
            arena_services.message_post(conversation_id=conversation.pk, sender_role="witness", text=answer, user=user)
            history += [("interrogator", question), ("witness", answer)]


def _trades(market, bettors, plan) -> None:
    for n, (who, action, security) in enumerate(plan):
        xmarket_trade(
            market_id=market.pk, user=bettors[who], action=action, security=security, key=f"demo-{market.pk}-{n}"
        )


def _interrogation(title, judge, human, entry, minutes):
    return arena_services.interrogation_create(
        judge=judge, witnesses=[human, entry], time_limit_s=minutes * 60, title=title
    )


@transaction.atomic
def demo_seed_xmarkets() -> list[str]:
    """Needs seed_demo's people and entries and seed_demo_markets' bettors; returns what it made."""
    User = get_user_model()
    people = {
        u.username: u
        for u in User.objects.filter(
            username__in=["judge1", "judge2", "confederate1", "confederate2", *(b for b, _ in DEMO_BETTORS)]
        )
    }
    eliza, simple = (
        Entry.objects.filter(display_name="ELIZA").first(),
        Entry.objects.filter(display_name="Simple Bot").first(),
    )
    if len(people) < 6 or eliza is None or simple is None:
        return []
    bettors = [people[b] for b, _ in DEMO_BETTORS]
    made = []
    if not Interrogation.objects.filter(title=ENDED_TITLE).exists():
        interrogation = _interrogation(ENDED_TITLE, people["judge2"], people["confederate2"], eliza, 5)
        market = xmarket_open(interrogation_id=interrogation.pk, delay_s=60)
        arena_services.interrogation_start(interrogation_id=interrogation.pk)
        _talk(interrogation, people["judge2"], people["confederate2"])
        _trades(market, bettors, [(0, "buy", "H"), (0, "buy", "H"), (1, "buy", "C"), (0, "buy", "H"), (1, "sell", "C")])
        arena_services.interrogation_end(interrogation_id=interrogation.pk, reason="judge")
        human_side = interrogation.conversations.get(witness_human__isnull=False).side
        arena_services.verdict_submit(
            interrogation_id=interrogation.pk,
            judge=people["judge2"],
            choice=human_side,
            confidence=70,
            reason="The coffee.",
        )
        xmarket_sync(market_id=market.pk)
        made.append(ENDED_TITLE)
    if not Interrogation.objects.filter(title=LIVE_TITLE, status__in=[Status.SCHEDULED, Status.RUNNING]).exists():
        interrogation = _interrogation(LIVE_TITLE, people["judge1"], people["confederate1"], simple, 60)
        market = xmarket_open(interrogation_id=interrogation.pk, delay_s=60)
        arena_services.interrogation_start(interrogation_id=interrogation.pk)
        _talk(interrogation, people["judge1"], people["confederate1"])
        _trades(market, bettors, [(1, "buy", "C"), (0, "buy", "H"), (1, "buy", "C")])
        made.append(LIVE_TITLE)
    return made
