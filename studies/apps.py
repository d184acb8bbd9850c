from django.apps import AppConfig


def _game_markets(interrogation_ids) -> dict:
    """A study's games get crowd markets only where its configuration says `spectator_markets: true`."""
    from studies.models import Game

    return {
        game.interrogation_id: {"delay_s": float(game.study.config.get("spectator_delay_s", 60))}
        for game in Game.objects.filter(interrogation_id__in=interrogation_ids).select_related("study")
        if game.study.config.get("spectator_markets") is True
    }


def _player_next_steps(user):
    """A study's games lead their players on through the study's own pages (play again): the arena's "what
    next" lists none of them."""
    from arena.next_steps import FormatSteps
    from studies.models import Game

    games = Game.objects.filter(interrogation__judge=user)
    return FormatSteps(claimed=set(games.values_list("interrogation_id", flat=True)))


def _anonymous_players():
    """The stand-in users of a study's players: left out of the admin's people pickers."""
    from django.db.models import Q

    return Q(study_participant__isnull=False)


class StudiesConfig(AppConfig):
    name = "studies"
    verbose_name = "Online studies"

    def ready(self):
        from core.metrics import snapshot_register

        snapshot_register("arena_play_lobby", "/play/ players waiting in the lobby", _lobby)
        from arena.results import source_register
        from studies.results import StudyResults

        source_register(StudyResults())  # live games and transcript verdicts on the arena's results pages

        from markets.policies import xmarket_policy_register

        xmarket_policy_register(_game_markets)

        from arena.next_steps import next_steps_register

        next_steps_register(_player_next_steps)  # a study reveals at once: no reveal rule, only its own way on

        from arena.admin_people import people_hidden_register

        people_hidden_register(_anonymous_players)  # players are participants, not the organisers' people


def _lobby():
    from studies.models import Ticket

    return [({}, Ticket.objects.filter(state=Ticket.State.WAITING).count())]
