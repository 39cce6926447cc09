"""The log as readable sentences in the terminal: the engine's rendering of the templates each
game's spec holds (`engine.sentences`), with the spec the server serves (`GET /v1/titles`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.sentences import Entry, cited, fact, folded, label, sentence

__all__ = ["Narrator", "cited", "fact", "folded", "label", "taken_back"]


class Narrator:
    """Sentences for the entries of one game as they come, remembering the submissions that
    later verdicts are about."""

    def __init__(self, players: Sequence[str], spec: Mapping[str, Any] | None):
        self.players, self.spec, self.by_seq = list(players), spec, {}

    def __call__(self, entry: Entry) -> str:
        self.by_seq[entry["seq"]] = entry
        return sentence(entry, self.players, self.by_seq, self.spec)


def taken_back(entries: Iterable[Entry]) -> set[int]:
    """The entries that no longer count: the submissions a takeback among `entries` took off
    the line (its `taken-back` effect lists them), and their verdicts."""
    entries = list(entries)
    undone = {seq for entry in entries for effect in entry.get("effects") or []
              if effect["type"] == "taken-back" for seq in effect["undone"]}
    return undone | {entry["seq"] for entry in entries if entry.get("of") in undone}
