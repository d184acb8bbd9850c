"""Kernel indices of the 13 reference agent types (same order as ``config.AGENT_TYPES``)."""

RANDOM, LS, FR, WOC, BID, DICT, BT, ORACLE, IMIT, QL, COOPQL, SARSA, COOPSARSA = range(13)
N_TYPES = 13
TRAINING_EPISODES = 100
ALPHA = 0.3
GAMMA = 0.3
