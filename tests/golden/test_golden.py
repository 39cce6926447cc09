"""Golden replays: every recorded game still replays exactly as it was played, under the rules
version its log names. A failure here means a game would now be judged, shown or scored
differently than when it was stored; the message says what to do about it."""

from __future__ import annotations

import pytest

from engine import log
from engine.games import GAMES, RULES
from tests.golden.generate import DIGITS, HERE, load, observed, path_of

GOLDEN = sorted(HERE.rglob("*.json.gz"))
ADVICE = (
    "A rules_version names how a game plays, forever. If the change is meant, give the game a"
    " new rules_version, keep the old rules registered beside it (engine/games/__init__.py) for"
    " the games stored under them, and record the new version's golden games with"
    " `.venv/bin/python -m tests.golden.generate` (docs/design.md, \"Rules versions\")."
)


def test_the_current_rules_of_every_title_have_a_golden_game_of_every_player_count():
    missing = [
        str(path_of(g.rules_version, n).relative_to(HERE))
        for g in GAMES.values() for n in g.seat_counts
        if not path_of(g.rules_version, n).exists()
    ]
    assert not missing, (
        f"no golden game for {', '.join(missing)}: record them with"
        " `.venv/bin/python -m tests.golden.generate`"
    )


@pytest.mark.parametrize("path", GOLDEN, ids=[str(p.relative_to(HERE)) for p in GOLDEN])
def test_a_golden_game_replays_byte_for_byte(path):
    golden = load(path)
    entries, seed, decks = golden["entries"], golden["seed"], golden["decks"]
    version = entries[0]["rules_version"]
    if version not in RULES:
        pytest.fail(f"{version} is no longer registered, yet stored games name it. {ADVICE}")
    game = log.rules(entries[0])
    table = log.table_of(entries[0], seed, decks)

    def differs(what: str) -> str:
        return f"{version} no longer replays {path.relative_to(HERE)}: {what}. {ADVICE}"

    steps = list(log.fold(game, table, entries))
    recomputed = {s.entry["seq"]: s.recomputed for s in steps if s.recomputed is not None}
    for entry in entries:
        if entry["type"] in (log.ACCEPTED, log.REJECTED):
            now = {**recomputed[entry["of"]], "seq": entry["seq"]}
            assert log.canonical(now) == log.canonical(entry), differs(
                f"the verdict on entry {entry['of']} was {entry}, it is now {now}"
            )
    seen = observed(game, entries[0]["players"], steps)
    for seq, (was, now) in enumerate(zip(_digests(golden), seen, strict=True), start=1):
        assert was == now, differs(
            f"what some viewer sees right after entry {seq} changed (a view, whose turn it is,"
            f" the round, the score or the entry as redacted): {entries[seq - 1]}"
        )
    final = steps[-1].state
    score = game.score(final).to_json(entries[0]["players"])
    assert score == golden["score"], differs(f"the final score was {golden['score']}, is {score}")
    assert game.is_over(final) and entries[-1] == {**log.finished(seed, decks),
                                                  "seq": len(entries)}, differs("the end moved")
    assert log.chain(log.GENESIS, entries)[-1]["hash"] == golden["head"], (
        "the hash chain no longer reproduces: the canonical JSON or the hash of docs/api.md"
        " section 5 changed, and every stored log would fail its audit"
    )


def test_golden_games_hold_rejections_and_the_secret_choices_of_their_titles():
    for path in GOLDEN:
        entries = load(path)["entries"]
        kinds = {e["type"] for e in entries}
        assert log.REJECTED in kinds, f"{path}: no refused move"
        game = log.rules(entries[0])
        secret = [e for e in entries if e["type"] == log.ACCEPTED and game.is_secret(e["move"])]
        if game.name == "hermit":
            assert secret and all(e["hidden"] == ["move"] for e in secret), path


def _digests(golden) -> list[str]:
    text = golden["observed"]
    return [text[i : i + DIGITS] for i in range(0, len(text), DIGITS)]
