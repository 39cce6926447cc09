"""The project's redis.conf keeps a game's keys compact (`bench/memory.py` measures how much)."""

import orjson
import pytest
import redis

from engine import log
from engine.game import Table
from engine.games import GAMES
from store import Store, keys
from store.projections import Projection
from tests.conftest import ROOT, _free_port, start_redis, stop
from tests.store.conftest import append, new_game, submit


@pytest.fixture
def configured(tmp_path):
    """A Redis of the project's redis.conf, keeping nothing on disk (only its memory settings
    are under test)."""
    port = _free_port()
    proc = start_redis(port, str(ROOT / "redis.conf"), "--dir", str(tmp_path),
                       "--appendonly", "no")
    yield Store(redis.Redis(port=port))
    stop([proc])


def test_the_verdict_index_of_a_long_game_stays_a_listpack(configured):
    """Past Redis's default (512 fields in Debian's Redis 7.0, 128 upstream) a hash is a table
    of ~70 bytes a field: a tenth of a finished Coloretto game's memory (~650 moves for four
    players) went to its verdict index."""
    game_id = new_game(configured)
    for _ in range(700):
        seq = submit(configured, game_id).seq
        rejected = {"type": log.REJECTED, "of": seq, "seat": 0}
        assert append(configured, game_id, [rejected], verdicts=[(seq, 0)]).outcome == "ok"
    index = keys.game(game_id).verdict
    assert configured.redis.hlen(index) == 700
    assert configured.redis.object("encoding", index) == b"listpack"
    assert configured.redis.memory_usage(index, samples=0) < 700 * 12


def test_the_meta_of_a_game_with_long_options_stays_a_listpack(configured):
    """A Hermit game's options are 77 bytes of JSON: past 64 bytes (Redis's default) its meta
    would be a hash table, twice the bytes, a sixth of what a compacted Hermit game keeps."""
    game, players = GAMES["hermit"], ["a", "b", "c", "d"]
    options = game.options(len(players), {})
    created = {**log.created(game, players, options, "s", []), "at": "2026-01-01T00:00:00.000Z"}
    state = game.deal(Table(len(players), options, "s", ()))
    configured.games.create("long", created, {"seed": "s", "decks": []}, {"t": "table"},
                            Projection.of(game, state, 0))
    assert len(orjson.dumps(options)) > 64
    assert configured.redis.object("encoding", keys.game("long").meta) == b"listpack"
