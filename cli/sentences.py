"""The log as readable sentences in the terminal: the engine's rendering of the templates each
game's spec holds (`engine.sentences`), with the spec the server serves (`GET /v1/titles`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.sentences import Entry, fact, folded, label, sentence

__all__ = ["Narrator", "fact", "folded", "label"]


class Narrator:
    """Sentences for the entries of one game as they come, remembering the submissions that
    later verdicts are about."""

    def __init__(self, players: Sequence[str], spec: Mapping[str, Any] | None):
        self.players, self.spec, self.by_seq = list(players), spec, {}

    def __call__(self, entry: Entry) -> str:
        self.by_seq[entry["seq"]] = entry
        return sentence(entry, self.players, self.by_seq, self.spec)
