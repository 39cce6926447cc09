"""A seeded game and the same game recorded at a real table (`engine.playout.transcribe`,
`record`) compared as a scorekeeper would: by their scores, whatever entry numbers differ."""

from __future__ import annotations


def brief(score: dict, ordered: bool = True) -> list:
    """A score without its entry numbers, which a recorded log's extra entries shift: totals,
    ranks, and every component's label, detail, points, deal and count of entries, in their
    order unless not `ordered` (Hermit's Stagecoach: known in the Decktet's order when never
    seen, in the order laid when dealt by the service)."""
    return [(p["seat"], p["total"], p["rank"],
             (list if ordered else sorted)(
                 (c["label"], c["detail"], c["points"], c["round"], len(c["events"]))
                 for c in p["components"])) for p in score["players"]]
