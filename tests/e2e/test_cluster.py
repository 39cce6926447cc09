"""The game store on a Redis Cluster, with RQ on the standalone Redis, and a master's failover.

Three masters with one replica each (six real `redis-server` processes), the Procfile's web and
two workers pointed at them by REDIS_CLUSTER_URL and REDIS_URL. Games of every title are played
to the end until every master holds some, then the master holding the scheduler's keys (the
worst one to lose) is killed with SIGKILL while clients keep posting: its replica takes over,
no move answered 201 is lost, no submission gets two verdicts, and every game goes on by itself.
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis

from engine import log
from engine.events.entries import game_seed
from engine.games import GAMES
from engine.playout import play as playout_of
from store import Store, keys
from tests.api import Game, bearer, create, head_unsigned
from tests.e2e.cluster import local_cluster
from tests.e2e.served import serve
from workers.compaction import Compaction, compact

TITLES = sorted(GAMES)
# Moves played in each game on the healthy cluster: enough for every kind of entry.
_MOVES = 30
# Every loop of the failover test is bounded by this, from the kill on.
_RECOVERY_BOUND_S = 30


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with local_cluster(tmp_path_factory.mktemp("cluster")) as running:
        yield running


@pytest.fixture(scope="module")
def http(cluster, redis_url):
    # RQ's queues on a database of the suite's own Redis that no other worker listens on.
    queues = redis_url.rsplit("/", 1)[0] + "/3"
    redis.Redis.from_url(queues).flushdb()
    with serve({"REDIS_URL": queues, "REDIS_CLUSTER_URL": cluster.url}, workers=2) as client:
        yield client


def log_key(game: Game) -> str:
    return keys.game(game.id).log


def games_on_every_master(http, cluster, name: str, at_least: int = 1) -> list[Game]:
    """New games, of every title in turn, until every master holds `at_least` of them."""
    games: list[Game] = []
    held: Counter[int] = Counter()
    masters = cluster.masters()
    for number in range(60):
        title = TITLES[number % len(TITLES)]
        seats = min(GAMES[title].seat_counts)
        game = create(http, title, [f"p{s}" for s in range(seats)], seed=f"{name}-{number}")
        games.append(game)
        held[cluster.master_of(log_key(game))] += 1
        if number >= len(TITLES) - 1 and all(held[m] >= at_least for m in masters):
            return games
    raise AssertionError(f"60 games and still a master holds too few: {held}")


def events(http, game: Game) -> list[dict]:
    return http.get(game.url("/events?limit=5000"), headers=game.table).json["events"]


def assert_one_verdict_each(entries: list[dict]) -> None:
    verdicts = Counter(e["of"] for e in entries if e["type"] in (log.ACCEPTED, log.REJECTED))
    assert verdicts and max(verdicts.values()) == 1


def assert_audited(http, game: Game) -> None:
    """A worker rebuilds the game from its log: the chain, every verdict and the stored state
    and score check."""
    audit = http.post(game.url("/audit?wait=10")).json
    assert audit["ok"] and audit["hash_chain_ok"], audit["mismatches"]


def play(game: Game) -> None:
    rnd = random.Random(game.id)
    for _ in range(_MOVES):
        legal = game.http.get(game.url("/legal-moves"), headers=game.table).json["moves"]
        choice = rnd.choice(legal)
        answer = game.move(choice["seat"], choice["move"])
        assert answer.status_code == 201, answer.json


def test_games_of_every_title_on_every_master(http, cluster):
    games = games_on_every_master(http, cluster, "cluster")
    with ThreadPoolExecutor(len(games)) as pool:
        list(pool.map(play, games))
    for game in games:
        score = http.get(game.url("/score")).json
        for player in score["players"]:
            assert player["total"] == sum(c["points"] for c in player["components"])
        assert_audited(http, game)
        assert_one_verdict_each(events(http, game))
    # The list of games spans every shard and pages through all of them exactly once.
    listed, cursor = [], ""
    for _ in range(len(games)):
        page = http.get(f"/v1/games?limit=2&cursor={cursor}").json
        listed += [g["id"] for g in page["games"]]
        if not (cursor := page["next"]):
            break
    assert sorted(listed) == sorted(g.id for g in games)


def test_games_that_ended_on_every_master_are_compacted_and_read_the_same(http, cluster,
                                                                           redis_url):
    store = Store.connect(redis_url, cluster.url)
    games = games_on_every_master(http, cluster, "compacted")
    reads = ("", "/state", "/state?at=2", "/score", "/replay", "/views", "/events?after=1")
    for game in games:
        for seat in range(len(game.created["players"]) - 1):
            assert game.move(seat, {"type": "concede"}).status_code == 201
        before = _read_as_seat_0(http, game, reads)
        assert compact(store, game.id) == Compaction.WRITTEN
        assert cluster.master_of(keys.game(game.id).compact) == cluster.master_of(log_key(game))
        assert _read_as_seat_0(http, game, reads) == before
        assert_audited(http, game)


def _read_as_seat_0(http, game: Game, reads: tuple[str, ...]) -> list[bytes]:
    said = [http.get(game.url(read), headers=game.seat(0)).data for read in reads]
    return [head_unsigned(a) if r == "/replay" else a for r, a in zip(reads, said, strict=True)]


class Players:
    """Clients posting random legal moves to their games, each with an Idempotency-Key that it
    repeats until the move gets a verdict, as the API asks of clients when a call fails."""

    def __init__(self, http, games: list[Game]):
        self.http, self.games = http, games
        self.acknowledged: list[tuple[Game, int, dict, dict]] = []
        self.accepted_after: dict[str, float] = {}
        # Games with a move accepted since the kill, or finished.
        self.done: set[str] = set()
        self.killed_at: float | None = None
        self.stop = threading.Event()
        self._lock = threading.Lock()
        self._threads = [threading.Thread(target=self._play, args=(g,)) for g in games]

    def __enter__(self) -> Players:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        for thread in self._threads:
            thread.join(60)

    def _play(self, game: Game) -> None:
        rnd = random.Random(game.id)
        while not self.stop.is_set():
            legal = self._send("get", game.url("/legal-moves"), headers=game.table)
            if legal is None or legal.status_code != 200:
                continue
            if not legal.json["moves"]:
                with self._lock:
                    self.done.add(game.id)
                return
            choice = rnd.choice(legal.json["moves"])
            self._post_until_judged(game, choice["seat"], choice["move"])

    def _post_until_judged(self, game: Game, seat: int, move: dict) -> None:
        headers = {**game.seat(seat), "Idempotency-Key": uuid.uuid4().hex}
        posted_at = time.monotonic()
        while not self.stop.is_set():
            answer = self._send("post", game.url("/moves?wait=2"), json={"move": move},
                                headers=headers)
            if answer is None or answer.status_code in (202, 503):
                continue
            if answer.status_code == 201:
                self._acknowledge(game, seat, move, answer.json, posted_at)
            return

    def _acknowledge(self, game: Game, seat: int, move: dict, answer: dict, posted_at: float):
        with self._lock:
            self.acknowledged.append((game, seat, move, answer))
            if self.killed_at is not None and posted_at > self.killed_at:
                self.accepted_after.setdefault(game.id, time.monotonic())
                self.done.add(game.id)

    def _send(self, method: str, url: str, **kwargs):
        try:
            return getattr(self.http, method)(url, **kwargs)
        except OSError:
            time.sleep(0.05)
            return None


def wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def test_an_event_runs_on_the_cluster(http):
    """An event's log lives under a hash tag of its own, its listing under another: no
    transaction spans the two."""
    seed = "cluster-event"
    created = http.post("/v1/events", json={
        "name": "on a cluster", "game": "hermit", "players": [f"p{n}" for n in range(6)],
        "rounds": 1, "format": "swiss", "table_size": 3, "points": [2, 1, 0], "seed": seed}).json
    seated = http.post(f"/v1/events/{created['id']}/rounds",
                       headers=bearer(created["organiser_token"])).json
    for table in seated["tables"]:
        game_seed_ = game_seed(seed, 1, table["table"])
        playout = playout_of(GAMES["hermit"], 3, game_seed_, random.Random(game_seed_))
        for entry in playout.entries:
            if entry["type"] == log.SUBMITTED:
                answer = http.post(f"/v1/games/{table['id']}/moves?wait=10",
                                   json={"seat": entry["seat"], "move": entry["move"]},
                                   headers=bearer(table["table_token"]))
                assert answer.status_code == 201, answer.json
    document = http.get(f"/v1/events/{created['id']}/export").json
    assert [e["type"] for e in document["entries"]][-1] == "event-finished"
    assert http.post("/v1/events/verify", json=document).json["ok"]


def test_a_master_killed_under_load_loses_no_acknowledged_move(http, cluster, capsys):
    victim = cluster.master_of(keys.WORKERS)  # the scheduler's shard
    games = games_on_every_master(http, cluster, "failover", at_least=2)
    on_victim = [g for g in games if cluster.master_of(log_key(g)) == victim]
    with Players(http, games) as players:
        assert wait_for(lambda: len(players.acknowledged) >= 3 * len(games), 30)
        cluster.kill(victim)
        players.killed_at = killed_at = time.monotonic()
        # Recovered once every game has had a move, posted after the kill, accepted.
        recovered = wait_for(lambda: len(players.done) == len(games), _RECOVERY_BOUND_S)
        recovery_s = max(players.accepted_after.values(), default=killed_at) - killed_at
    assert recovered, f"games that never accepted a move again: {len(games) - len(players.done)}"
    assert {g.id for g in on_victim} <= set(players.accepted_after)
    assert victim not in cluster.masters()
    with capsys.disabled():
        print(f"\nfailover: {len(games)} games ({len(on_victim)} on the killed master),"
              f" {len(players.acknowledged)} moves answered 201, every game accepting moves"
              f" again {recovery_s:.1f} s after the kill")
    by_game = {g.id: events(http, g) for g in games}
    for game, seat, move, answer in players.acknowledged:
        entries = by_game[game.id]
        submitted, verdict = entries[answer["seq"] - 1], entries[answer["version"] - 1]
        assert (submitted["type"], submitted["seat"], submitted["move"]) == (
            log.SUBMITTED, seat, move)
        assert (verdict["type"], verdict["of"]) == (log.ACCEPTED, answer["seq"])
    for game in games:
        assert_one_verdict_each(by_game[game.id])
        assert_audited(http, game)
