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
