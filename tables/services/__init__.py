from tables.services.games import BackendsFailed, config_clean, game_create, game_prepare, game_start
from tables.services.turns import game_play, turn_play
