from tables.services.games import config_clean, game_create, game_start
from tables.services.turns import game_play, turn_play
