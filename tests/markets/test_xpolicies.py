"""Which conversations get a crowd market: a study only where its configuration allows spectators."""
import pytest

from markets.models import ConversationMarket
from tests.conftest import FAST


def _study_game(spectators: bool | None):
    from studies import services as studies

    config = {"format": "two-party", "minutes": 5, "seed": 1, "human_witness_share": 0.0, "games_per_participant": 4,
              "witnesses": [{"name": "Watch-AI", "engine": "simple", "settings": dict(FAST)}]}
    if spectators is not None:
        config.update(spectator_markets=spectators, spectator_delay_s=30)
    study = studies.study_load(config=config, status="open")
    player = studies.participant_create(study=study, simulated=True)
    studies.consent_give(participant=player, agreed=True)
    studies.survey_submit(participant=player, phase="demographics", answers={})
    return studies.lobby_join(participant_id=player.pk)


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
    from markets.services.xmarkets import CONFLICT, trade_refusal
    from tests.conftest import make_user
    from tests.tournaments.loebner.helpers import finals_make
    from tournaments.loebner.models import Contest, Meeting

    contest = finals_make(cast)
    others = Meeting.objects.filter(round__contest=contest).exclude(judge__user=cast.jude).exclude(
        confederate__user=cast.connie).select_related("interrogation").first()
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
