"""Games loaded whole from elsewhere: stored as given in one script, or not at all."""

from bench.played import replay, stored
from engine import log
from engine.games import GAMES
from store import keys
from store.games import Loaded
from tests.store.conftest import new_game
from workers.compaction import Compaction, compact


def keys_of(store, game_id):
    k = keys.game(game_id)
    return {key: store.redis.dump(key) for key in (k.log, k.meta, k.secret, k.verdict, k.proj)}


def test_a_loaded_game_reads_back_entry_for_entry_with_its_verdict_index(store):
    document = replay("hermit", "load", "h1")
    head = (document["version"], document["entries"][-1]["hash"])
    assert stored(store, document) == Loaded(True, *head)
    assert store.log.entries("h1") == document["entries"]
    assert store.log.head("h1") == head
    verdicts = {e["of"]: e["seq"] for e in document["entries"]
                if e["type"] in (log.ACCEPTED, log.REJECTED)}
    assert {of: store.log.verdict("h1", of)["seq"] for of in verdicts} == verdicts
    assert store.games.secret("h1") == ("load", [])
    meta = store.games.context("h1", None).meta
    assert meta["players"] == document["players"]
    assert meta["created_at"] == document["entries"][0]["at"]
    assert meta["submitted"] == max(e["seq"] for e in document["entries"]
                                    if e["type"] == log.SUBMITTED)
    assert store.projections.position("h1").status == "finished"


def test_a_loaded_game_is_listed_at_its_creation_time_among_all_its_titles_and_finished(store):
    new_game(store, "here")  # created now: after any game of January 2026
    stored(store, replay("hermit", "load", "old", created=60))
    for title, finished in ((None, False), ("hermit", False), (None, True)):
        listed = [g for g, _ in store.games.ids(None, 10, title=title, finished=finished)]
        assert listed[0] == "old"
    newest = [g for g, _ in store.games.ids(None, 10, newest=True)]
    assert newest == ["here", "old"]


def test_an_id_taken_by_another_game_is_left_as_it_was(store):
    new_game(store, "taken")
    before = keys_of(store, "taken")
    loaded = stored(store, replay("hermit", "load", "taken"))
    assert loaded == Loaded(False, *store.log.head("taken"))
    assert keys_of(store, "taken") == before
    assert store.games.ids(None, 10, title="hermit") == []


def test_loading_the_same_game_twice_writes_it_once_and_lists_it_again(store):
    document = replay("keltis-card", "load", "k1")
    stored(store, document)
    store.redis.delete(keys.FINISHED)  # as if the first import stopped before listing it
    before = keys_of(store, "k1")
    assert stored(store, document).written is False
    assert keys_of(store, "k1") == before
    assert [g for g, _ in store.games.ids(None, 10, finished=True)] == ["k1"]


def test_every_title_loads_under_its_rules(store):
    for number, title in enumerate(sorted(GAMES)):
        document = replay(title, "load", f"t{number}")
        assert stored(store, document).written
        assert store.log.entries(f"t{number}")[-1] == document["entries"][-1]


def test_games_created_in_the_same_millisecond_list_apart(store):
    at_once = [replay("hermit", "load", f"same-{n}") for n in range(20)]
    for document in at_once:
        stored(store, document)
    times = [when for _, when in store.games.ids(None, 100)]
    assert len(set(times)) == 20
    assert max(times) - min(times) < 1e-3


def test_a_game_is_held_by_the_first_id_that_takes_it(store):
    game_id = new_game(store)
    created = store.log.entries(game_id, upto=1)[0]["hash"]
    assert store.games.take_id(created, "another") == game_id  # taken as it was created
    assert store.games.take_id(created, game_id) == game_id
    assert store.games.take_id("f" * 64, "first") == "first"
    assert store.games.take_id("f" * 64, "second") == "first"
    assert store.games.take_id("f" * 64, "second", stale="first") == "second"
    assert store.games.take_id("f" * 64, "third", stale="first") == "second"


def test_games_stored_before_the_index_of_creations_are_entered_once(store):
    ids = [new_game(store, f"old{n}", seed=f"s{n}") for n in range(3)]
    store.redis.delete(keys.BY_CREATION)  # as stored before the index existed
    created = {g: store.log.entries(g, upto=1)[0]["hash"] for g in ids}
    assert store.games.enter_every_creation(at_once=2) == 3
    assert all(store.games.take_id(created[g], "a-copy") == g for g in ids)
    store.redis.delete(keys.BY_CREATION)
    assert store.games.enter_every_creation() == 0  # the pass was made: not again
    assert store.redis.hlen(keys.BY_CREATION) == 0


def test_a_compacted_game_stored_before_the_index_of_creations_is_entered_too(store):
    document = replay("hermit", "entered", "old-compacted")
    assert stored(store, document).written
    assert compact(store, "old-compacted") == Compaction.WRITTEN
    store.redis.delete(keys.BY_CREATION)  # as stored before the index existed
    assert store.games.enter_every_creation() == 1
    assert store.games.take_id(document["entries"][0]["hash"], "a-copy") == "old-compacted"
