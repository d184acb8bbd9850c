"""Turing the Tables: language models trying to convince each other that they are machines."""
