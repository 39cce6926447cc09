"""A seeded game and the same game recorded at a real table (`engine.playout.transcribe`,
`record`) compared as a scorekeeper would: by their scores, whatever entry numbers differ."""

from __future__ import annotations


def brief(score: dict) -> list:
    """A score without its entry numbers, which a recorded log's extra entries shift: totals,
    ranks, and every component's label, detail, points, deal and count of entries."""
    return [(p["seat"], p["total"], p["rank"],
             [(c["label"], c["detail"], c["points"], c["round"], len(c["events"]))
              for c in p["components"]]) for p in score["players"]]
