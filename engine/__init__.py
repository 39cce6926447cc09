"""The rules engine of tablelog: pure functions from a deal and a log of moves to game states.

This package does no I/O. It never imports Flask, Redis, RQ or marshmallow, never reads the
clock, the environment or a global random source: every state is a function of the seed, the
explicit decks and the moves alone, so a replay reproduces a game byte for byte. Randomness
comes only from the contract's seeded shuffle (`engine.shuffle`), with one label per use.
"""
