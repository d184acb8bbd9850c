"""Which conversations get a crowd market: a study only where its configuration allows spectators, a
contest's meetings and a wager session's interviews unless their organisers turned spectators off."""

import pytest

from markets.models import ConversationMarket
from tests.conftest import FAST
from tests.studies.helpers import game_for


def _study_game(spectators: bool | None):
    from studies import services as studies

    config = {
        "format": "two-party",
        "minutes": 5,
        "seed": 1,
        "human_witness_share": 0.0,
        "games_per_participant": 4,
        "witnesses": [{"name": "Watch-AI", "engine": "simple", "settings": dict(FAST)}],
    }
    if spectators is not None:
        config.update(spectator_markets=spectators, spectator_delay_s=30)
    study = studies.study_load(config=config, status="open")
    player = studies.participant_create(study=study, simulated=True)
    studies.consent_give(participant=player, agreed=True)
    studies.survey_submit(participant=player, phase="demographics", answers={})
    return game_for(player)  # the lobby's game once its drawn wait has run out


@pytest.mark.parametrize("spectators", [None, False])
def test_a_study_has_no_market_unless_its_configuration_allows_it(client, cast, spectators):
    _study_game(spectators)
    assert "No games to watch" in client.get("/play/watch/").content.decode()
    assert not ConversationMarket.objects.exists()


def test_a_study_that_allows_spectators_is_watched_with_its_own_delay(client, cast):
    game = _study_game(True)
    page = client.get("/play/watch/").content.decode()
    cm = ConversationMarket.objects.get(interrogation=game.interrogation)
    assert str(cm.game.public_id) in page and cm.side == "sole"
    assert cm.interrogation.spectator_feed.delay_s == 30


def test_the_study_configuration_refuses_a_bad_delay():
    from studies.rules.design import DesignError, design_read

    config = {"seed": 1, "witnesses": [{"name": "A", "engine": "simple"}], "spectator_delay_s": -1}
    with pytest.raises(DesignError, match="spectator_delay_s"):
        design_read(config)
    assert design_read({**config, "spectator_delay_s": 90}).spectator_delay_s == 90
    assert design_read({**config, "spectator_delay_s": 90}).spectator_markets is False


def test_a_contests_judges_and_confederates_watch_none_of_its_meetings_until_it_is_over(client, cast):
    """A judge who watched another meeting would learn its entry's manner (and so which side is the
    machine in their own): every judge and confederate of the contest is an insider until it is done."""
    from markets import services
    from markets.conversation.services import CONFLICT, trade_refusal
    from tests.conftest import make_user
    from tests.tournaments.loebner.helpers import finals_make
    from tournaments.loebner.models import Contest, Meeting

    contest = finals_make(cast)
    others = (
        Meeting.objects.filter(round__contest=contest)
        .exclude(judge__user=cast.jude)
        .exclude(confederate__user=cast.connie)
        .select_related("interrogation")
        .first()
    )
    market = services.xmarket_open(interrogation_id=others.interrogation_id, delay_s=30)
    url = f"/markets/conversations/{market.game.public_id}/state.json"
    for insider in (cast.jude, cast.connie):  # in the contest, not in this meeting
        client.force_login(insider)
        refused = client.get(url)
        assert refused.status_code == 403 and "once it is over" in refused.json()["message"]
        assert trade_refusal(market, insider) == CONFLICT
    outsider = make_user("paula")
    client.force_login(outsider)
    assert client.get(url).status_code == 200 and trade_refusal(market, outsider) is None
    from markets.policies import xmarket_insiders

    xmarket_insiders.cache.clear()
    Contest.objects.filter(pk=contest.pk).update(status=Contest.Status.DONE)
    client.force_login(cast.jude)
    assert client.get(url).status_code == 200


@pytest.mark.parametrize("allowed, delay", [(True, None), (True, 15.0), (False, None)])
def test_a_contest_chooses_whether_its_meetings_get_markets_and_their_delay(cast, settings, allowed, delay):
    from markets.services import xmarkets_ensure
    from tests.tournaments.loebner.helpers import finals_make
    from tournaments.loebner.models import Meeting

    settings.MARKETS_SPECTATOR_DELAY_S = 45
    contest = finals_make(cast, spectator_markets=allowed, spectator_delay_s=delay)
    meetings = Meeting.objects.filter(round__contest=contest).exclude(interrogation=None)
    opened = xmarkets_ensure(interrogation_ids=meetings.values_list("interrogation_id", flat=True))
    assert len(opened) == (meetings.count() if allowed else 0)
    assert {m.interrogation.spectator_feed.delay_s for m in opened} == ({delay or 45} if allowed else set())


def test_a_contest_without_spectators_says_so_on_its_board(client, cast):
    from tests.tournaments.loebner.helpers import finals_make

    contest = finals_make(cast, spectator_markets=False)
    client.force_login(cast.olivia)
    page = client.get(f"/contests/{contest.pk}/board/").content.decode()
    assert "off</td>" in page and "/markets/conversations/" not in page


@pytest.mark.parametrize("allowed", [True, False])
def test_a_wager_session_chooses_whether_its_interviews_get_markets(cast, allowed):
    from markets.services import xmarkets_ensure
    from tests.tournaments.wager_helpers import wager_session
    from tournaments.wager.models import AuditEntry, Interview

    session = wager_session(cast, spectator_markets=allowed, spectator_delay_s=120)
    ids = Interview.objects.filter(trial__session=session).values_list("interrogation_id", flat=True)
    opened = xmarkets_ensure(interrogation_ids=ids)
    assert len(opened) == (len(ids) if allowed else 0)
    assert all(m.interrogation.spectator_feed.delay_s == 120 for m in opened)
    created = AuditEntry.objects.get(session=session, action="session.create")
    assert created.detail["spectator_markets"] is allowed and created.detail["spectator_delay_s"] == 120


@pytest.mark.parametrize("delay", [-1, 3601, "60", True])
def test_a_wager_session_refuses_a_bad_spectator_delay(cast, delay):
    from core.errors import InvalidInput
    from tests.tournaments.wager_helpers import wager_session

    with pytest.raises(InvalidInput, match="spectator_delay_s"):
        wager_session(cast, spectator_delay_s=delay)


def test_the_contest_list_lets_the_public_watch_each_judges_meeting_of_the_current_round(client, cast):
    from tests.tournaments.loebner.helpers import finals_make
    from tournaments.loebner.models import Contest

    contest = finals_make(cast)
    Contest.objects.filter(pk=contest.pk).update(name="Prize <b>2026</b>")
    page = client.get("/contests/").content.decode()
    assert "Prize &lt;b&gt;2026&lt;/b&gt;" in page and "round 1 of" in page
    assert page.count('class="crowd-market"') == contest.rounds.get(number=1).meetings.count()
    assert ">J1</a>" in page and "/board/" not in page  # the board is the organisers'
    client.force_login(cast.olivia)
    assert f"/contests/{contest.pk}/board/" in client.get("/contests/").content.decode()
    Contest.objects.filter(pk=contest.pk).update(spectator_markets=False)
    assert 'class="crowd-market"' not in client.get("/contests/").content.decode()


def test_the_sweep_asks_each_format_once_however_many_conversations_run(cast):
    """The markets sweep (every 5 s) looks at every running conversation without a market: one query
    per format for all of them, not one per conversation, and the games that allow spectators get theirs."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from markets.services import xmarkets_ensure

    def sweep_queries() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert xmarkets_ensure() == []
        return len(queries)

    _study_game(False)
    one = sweep_queries()
    for _ in range(5):
        _study_game(None)
    assert sweep_queries() == one
    watched = _study_game(True)
    opened = xmarkets_ensure()
    assert [m.interrogation_id for m in opened] == [watched.interrogation_id]
    assert opened[0].interrogation.spectator_feed.delay_s == 30


def test_the_sweep_opens_a_rounds_markets_in_a_few_statements_each(cast):
    """A round's markets open on the beat's thread, which in the embedded default is daphne's process:
    every statement there is time the consoles wait. Per market: the feed (read, insert) and the market
    (read, the game, its book, its accounts, the link)."""
    from django.db import connection

    from markets.conversation.services import xmarkets_ensure
    from tests.tournaments.loebner.helpers import finals_make
    from tournaments.loebner.models import Meeting

    contest = finals_make(cast)
    ids = list(Meeting.objects.filter(round__contest=contest).values_list("interrogation_id", flat=True))
    statements = []

    def counted(execute, sql, params, many, context):
        if not sql.startswith(("SAVEPOINT", "RELEASE SAVEPOINT", "BEGIN", "COMMIT")):
            statements.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(counted):
        opened = xmarkets_ensure(interrogation_ids=ids)
    assert len(opened) == len(ids) >= 4
    assert len(statements) <= 2 + 7 * len(ids)  # the pending interrogations and the policies' read, then each
    for market in opened:
        assert market.game.status == "open" and market.interrogation.spectator_feed.delay_s > 0
    assert xmarkets_ensure(interrogation_ids=ids) == []  # opened once
