"""A game's life: create, open (the target is drawn), join, start, end and settle, or void."""

import datetime as dt
import secrets

from django.db import transaction
from django.utils import timezone

from arena import roles
from core.dispatch import enqueue_on_commit
from core.errors import Closed, InvalidInput, NotAllowed
from markets import notify
from markets.makers import PAYOUT
from markets.models import Account, Game, LedgerTxn, Market, Participant, Question
from markets.services.ledger import house_account, ledger_post

_draw = secrets.SystemRandom()
Status = Game.Status


def game_create(*, title: str = "", entries=(), humans=(), **fields) -> Game:
    with transaction.atomic():
        game = Game.objects.create(title=title, **fields)
        if entries:  # (a new game's empty pools: no read of what they hold)
            game.entry_pool.set(entries)
        if humans:
            game.human_pool.set(humans)
        Market.objects.create(game=game)
        Account.objects.bulk_create(
            [Account(game=game, kind=Account.Kind.MAKER), Account(game=game, kind=Account.Kind.ISSUER)]
        )
    return game


def locked_game(game_id: int) -> Game:
    """Lock the market row first (the lock order of every service), then the game row."""
    Market.objects.select_for_update(of=("self",)).get(game_id=game_id)
    return Game.objects.select_for_update(of=("self",)).get(pk=game_id)


def game_open(*, game_id: int, rng=None) -> Game:
    """Draw the target (human with probability p_human) and let bettors join."""
    rng = rng or _draw
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != Status.DRAFT:
            return game
        humans, entries = list(game.human_pool.all()), list(game.entry_pool.filter(active=True))
        if not humans and not entries:
            raise InvalidInput("The game needs at least one human target or one machine entry in its pools.")
        want_human = bool(humans) and (not entries or rng.random() < game.p_human)
        if want_human:
            game.target_human = rng.choice(humans)
        else:
            game.target_entry = rng.choice(entries)
        game.status = Status.OPEN
        game.save(update_fields=["target_human", "target_entry", "status"])
    return game


NOT_A_BETTOR = "You cannot bet in this game."  # one message for every refusal: it must not say who the target is


def _could_be_the_target(game: Game, user) -> bool:
    """A candidate of the draw, drawn or not: a member of the human pool, or the owner of an entry of
    the entry pool (a pull-mode entry would read its own questions)."""
    return game.human_pool.filter(pk=user.pk).exists() or game.entry_pool.filter(owner=user).exists()


def turing_trade_refusal(game: Game, user) -> str | None:
    """Who may not bet in a Turing Trade game: anyone without the bettor role, and every candidate of
    its draw (the same message for both: it must not say who the target is)."""
    if not roles.has_role(user, roles.BETTOR) or _could_be_the_target(game, user):
        return NOT_A_BETTOR
    return None


def game_join(*, game_id: int, user, refusal=turing_trade_refusal) -> Participant:
    """Join as a bettor with the game's starting points. `refusal(game, user)` says why a user may
    not (None: they may): Turing Trade's rule by default, a conversation market's its own
    (markets.conversation.services)."""
    if not user.is_authenticated:
        raise NotAllowed("Log in to join a game.")
    with transaction.atomic():
        game = locked_game(game_id)
        existing = Participant.objects.filter(game=game, user=user).first()
        if existing:
            return existing
        if game.status not in (Status.OPEN, Status.RUNNING) or _past_deadline(game):
            raise Closed("This game is not open for bettors.")
        reason = refusal(game, user)
        if reason:
            raise NotAllowed(reason)
        count = game.participants.count()
        if count >= game.max_bettors:
            raise Closed("This game is full.")
        account = Account.objects.create(game=game, kind=Account.Kind.BETTOR)
        participant = Participant.objects.create(game=game, user=user, number=count + 1, account=account)
        issuer = house_account(game=game, kind=Account.Kind.ISSUER)
        ledger_post(
            game=game,
            kind=LedgerTxn.Kind.GRANT,
            participant=participant,
            legs=[(issuer, -game.starting_points), (account, game.starting_points)],
        )
        if count + 1 == game.max_bettors and game.status == Status.OPEN:
            _start(game)
    return participant


def game_start(*, game_id: int, by=None) -> Game:
    if by is not None and not roles.is_organiser(by):
        raise NotAllowed("Only an organiser can start a game.")
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != Status.OPEN:
            raise Closed(f"This game is {game.status}, not open.")
        _start(game)
    return game


def _start(game: Game) -> None:
    from markets.tasks import game_close

    now = timezone.now()
    game.status, game.started_at = Status.RUNNING, now
    game.deadline = now + dt.timedelta(seconds=game.duration_s)
    game.save(update_fields=["status", "started_at", "deadline"])
    transaction.on_commit(lambda: notify.game_changed(game))
    enqueue_on_commit(game_close, game.pk, countdown=game.duration_s + 0.05)


def _past_deadline(game: Game, now=None) -> bool:
    return game.deadline is not None and (now or timezone.now()) >= game.deadline


def game_settle(*, game_id: int, reason: str = "time", force: bool = False) -> Game:
    """End a running game and pay 100 per winning security. Idempotent: a settled game is returned
    unchanged. Without `force`, only a game past its deadline is settled; never one whose truth is not
    known yet (a conversation market's target is set at its interrogation's reveal)."""
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != Status.RUNNING or not (force or _past_deadline(game)) or game.target_is_human is None:
            return game
        now = timezone.now()
        game.ended_at = min(now, game.deadline) if game.deadline else now
        game.status, game.end_reason = Status.SETTLED, reason
        game.save(update_fields=["status", "ended_at", "end_reason"])
        game.questions.filter(status=Question.Status.QUEUED).update(status=Question.Status.DROPPED)
        winner = Participant.Security.HUMAN if game.target_is_human else Participant.Security.COMPUTER
        maker = house_account(game=game, kind=Account.Kind.MAKER)
        for participant in (
            game.participants.filter(security=winner, quantity__gt=0).select_related("account").order_by("account_id")
        ):
            amount = PAYOUT * participant.quantity
            ledger_post(
                game=game,
                kind=LedgerTxn.Kind.PAYOUT,
                participant=participant,
                legs=[(maker, -amount), (participant.account, amount)],
            )
        transaction.on_commit(lambda: notify.game_changed(game))
    return game


def game_void(*, game_id: int, reason: str = "void") -> Game:
    """Abort a game: every bettor's net spend is refunded, positions are cancelled (maker P&L 0)."""
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status == Status.VOID:
            return game
        if game.status == Status.SETTLED:
            raise Closed("A settled game cannot be voided.")
        maker = house_account(game=game, kind=Account.Kind.MAKER)
        for participant in game.participants.select_related("account").order_by("account_id"):
            spent = game.starting_points - participant.account.balance
            if spent:
                ledger_post(
                    game=game,
                    kind=LedgerTxn.Kind.REFUND,
                    participant=participant,
                    legs=[(maker, -spent), (participant.account, spent)],
                )
        game.participants.update(security="", quantity=0)
        game.questions.filter(status=Question.Status.QUEUED).update(status=Question.Status.DROPPED)
        game.status, game.end_reason, game.ended_at = Status.VOID, reason, timezone.now()
        game.save(update_fields=["status", "end_reason", "ended_at"])
        transaction.on_commit(lambda: notify.game_changed(game))
    return game


def games_sweep() -> int:
    """Settle every running Turing Trade game past its deadline (after a restart, or a lost timer);
    conversation markets follow their interrogations instead (`xmarkets_sweep`, the same task)."""
    due = Game.objects.filter(
        status=Status.RUNNING, deadline__lte=timezone.now(), conversation_market__isnull=True
    ).values_list("pk", flat=True)
    return sum(game_settle(game_id=pk).status == Status.SETTLED for pk in list(due))
