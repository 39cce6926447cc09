"""The event store's one contract (`store.log.Log`): append, read a range, read the head, the
same for a live game and for the same game compacted (`store.compacted`), read cold or cached."""

import pytest

from engine import log
from store import Store, compacted, keys
from store.log import AppendResult
from store.stored import ProjField, Status
from tests.store.conftest import append, new_game, submit

RANGES = [(0, None, None), (0, 1, None), (1, 3, None), (2, None, 2), (4, 5, 1), (5, None, None),
          (3, 3, None), (0, None, 100), (6, None, None)]


def played(store: Store) -> str:
    """A game of a few submissions and verdicts, ended, written straight into the store."""
    game_id = new_game(store)
    for seat in (0, 1):
        submitted = submit(store, game_id, seat)
        verdict = {"type": log.ACCEPTED, "of": submitted.seq, "seat": seat,
                   "move": {"type": "draw"}, "effects": []}
        append(store, game_id, [verdict], verdicts=((submitted.seq, 0),))
    store.redis.hset(keys.game(game_id).proj, ProjField.STATUS, str(Status.FINISHED))
    return game_id


def compact(store: Store, game_id: str) -> None:
    entries, head = store.log.entries(game_id), store.log.head(game_id)
    _, state = store.projections.standing(game_id)
    record = compacted.encode(entries, state, b"{}")
    assert store.compacted.write(game_id, head, record) == "written"
    assert not store.redis.exists(keys.game(game_id).log)


def reads(store: Store, game_id: str) -> list:
    return [store.log.head(game_id),
            *(store.log.entries(game_id, after, upto, limit) for after, upto, limit in RANGES),
            *(store.log.verdict(game_id, seq) for seq in (2, 4, 5))]


@pytest.mark.parametrize("cached", [False, True], ids=["cold", "cached"])
def test_a_compacted_game_reads_as_it_did_live(store, cached):
    game_id = played(store)
    live = reads(store, game_id)
    assert live[0] == (5, live[1][-1]["hash"]) and [e["seq"] for e in live[1]] == [1, 2, 3, 4, 5]
    compact(store, game_id)
    reader = store if cached else Store(store.redis)
    assert reads(reader, game_id) == live
    assert reads(reader, game_id) == live  # and again, from what the first reads kept


def test_an_append_to_an_ended_game_is_refused_alike_live_and_compacted(store):
    game_id = played(store)
    refused_live = submit(store, game_id)
    compact(store, game_id)
    assert submit(store, game_id) == refused_live
    assert refused_live.outcome == AppendResult.FINISHED and refused_live.version == 5
