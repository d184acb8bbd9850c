"""Weizenbaum's ELIZA (1966) with the DOCTOR script, written for this project."""

from .doctor import DOCTOR
from .engine import ElizaEngine
from .interpreter import Eliza

__all__ = ["DOCTOR", "Eliza", "ElizaEngine"]
