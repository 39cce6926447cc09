"""Die sieben Siegel recorded from the command line: the round's setup (no fields), plays that
name their cards, a seat that did not follow shown by `show`, and a revoke said in the verdict."""

from __future__ import annotations

from tests.cli.test_table_actions import done, rejected


def test_a_revoke_is_said_at_the_play_that_proves_it(tablelog):
    created = tablelog.json("new", "sieben-siegel", "ann", "bob", "cid", "--recorded")
    game = created["id"]
    assert "names the setup first" in done(tablelog("show", game))
    rejected(tablelog("play", game, '{"type": "saboteur"}'), "setup-first")
    done(tablelog("setup", game, "{}"))
    for _ in range(3):
        done(tablelog("play", game, '{"type": "predict", "seals": {}}'))
    done(tablelog("play", game, '{"type": "play", "card": "G5"}'))
    said = done(tablelog("play", game, '{"type": "play", "card": "Y3"}'))
    assert "bob had no green" in said
    assert "had none: bob green" in done(tablelog("show", game))
    rejected(tablelog("play", game, '{"type": "play", "card": "G12"}'), "card-not-in-game")
    done(tablelog("play", game, '{"type": "play", "card": "G7"}'))  # cid wins, leads
    done(tablelog("play", game, '{"type": "play", "card": "B1"}'))
    done(tablelog("play", game, '{"type": "play", "card": "B2"}'))
    said = done(tablelog("play", game, '{"type": "play", "card": "G9"}'))
    assert "revoke: bob did not follow green" in said and "must follow suit" in said
