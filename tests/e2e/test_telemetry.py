"""What the processes tell their operator, checked on the Procfile's processes: two web
processes (gunicorn's) and two judging workers, with an auditor, sharing one
PROMETHEUS_MULTIPROC_DIR, play games on a Redis of their own while every answer is kept.

- `/metrics` counts what was posted: the verdicts by outcome and rule, the refusals by status
  and code, the moves by route; it holds no game id, token or player anywhere; it sees both web
  processes and both workers; and every metric the Grafana dashboard names is exported.
- Every line every process wrote is one JSON object, gunicorn's own and RQ's included, with
  none of a move's or a card's fields; a request id posted with a move is on the web's line for
  that move and the worker's verdict line for it, and on no other move's line; no line holds
  a token.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections import Counter
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bench.local import start_redis
from tests.api import Game, bearer
from tests.conftest import ROOT, _free_port
from tests.e2e.served import serve

_GAMES = 4
_MOVES = 60  # legal moves posted, besides the refused ones
_SETTLE_S = 20  # the bound on waiting for the last verdicts and the processes' gauges
_DASHBOARD = ROOT / "docs" / "grafana-dashboard.json"
# What a line may hold: never a move, its effects, a card or a sentence about them.
_LINE_FIELDS = {"at", "level", "process", "pid", "logger", "event", "error", "request_id",
                "method", "route", "status", "ms", "game", "seq", "outcome", "code", "seconds"}
_MOVES_ROUTE = "/v1/games/<game_id>/moves"


class _Played:
    """Games played by the processes, with every request's answer counted as it came."""

    def __init__(self, http):
        self.http = http
        self.games: list[Game] = []
        self.verdicts: Counter = Counter()  # (outcome, code) -> count
        self.refusals: Counter = Counter()  # (status, code) -> count
        self.moves_posted = 0
        self.by_request: dict[str, tuple[str, int]] = {}  # request id -> (game, its seq)

    def create(self, n: int) -> None:
        answer = self.http.post("/v1/games", json={
            "game": "coloretto", "seed": f"telemetry{n}", "players": ["ann", "bob", "cid"]})
        assert answer.status_code == 201, answer.json
        body = answer.json
        self.games.append(Game(self.http, body, {s["seat"]: s["token"] for s in body["seats"]}))

    def post(self, game: Game, seat: int, move: dict, request_id: str) -> None:
        answer = self.http.post(game.url("/moves?wait=5"), json={"move": move},
                                headers={**game.seat(seat), "X-Request-Id": request_id})
        self.moves_posted += 1
        assert answer.headers["X-Request-Id"] == request_id
        body = answer.json
        if answer.status_code >= 400:
            self.refusals[str(answer.status_code), body["code"]] += 1
        if answer.status_code == 202:
            body = self._verdict(game, body["seq"])
        # A rejection answered 422 says `verdict`; an acceptance, or a verdict read, `status`.
        outcome = body.get("verdict", body.get("status"))
        if outcome in ("accepted", "rejected"):
            self.verdicts[outcome, body.get("code") or ""] += 1
            self.by_request[request_id] = (game.id, body["seq"])

    def _verdict(self, game: Game, seq: int) -> dict:
        deadline = time.monotonic() + _SETTLE_S
        while time.monotonic() < deadline:
            found = self.http.get(game.url(f"/moves/{seq}"), headers=game.table).json
            if found["status"] != "pending":
                return found
            time.sleep(0.05)
        pytest.fail(f"no verdict on {game.id}'s move {seq} within {_SETTLE_S} s")

    @property
    def tokens(self) -> list[str]:
        return [t for g in self.games for t in (*g.tokens.values(), g.created["table_token"])]


def _play(played: _Played) -> None:
    """Legal moves at random, each with a request id of its own, and among them moves posted
    by a seat whose turn it is not (rejected by the worker, naming the rule) and malformed ones
    (refused by the web)."""
    rnd = random.Random(42)
    for n in range(_GAMES):
        played.create(n)
    for n in range(_MOVES):
        game = played.games[n % _GAMES]
        legal = played.http.get(game.url("/legal-moves"), headers=game.table).json["moves"]
        if not legal:
            continue
        choice = rnd.choice(legal)
        if n % 7 == 3:  # the wrong seat
            wrong = (choice["seat"] + 1) % 3
            played.post(game, wrong, choice["move"], f"wrong-seat-{n}")
        if n % 11 == 5:
            played.post(game, choice["seat"], {"type": "fly"}, f"malformed-{n}")
        played.post(game, choice["seat"], choice["move"], f"move-{n}")
    game = played.games[0]
    answer = played.http.post(game.url("/moves"), json={"move": {"type": "draw"}},
                              headers=bearer("not-a-token"))
    played.refusals[str(answer.status_code), answer.json["code"]] += 1


@pytest.fixture(scope="module")
def scene(tmp_path_factory):
    """The processes, the games they played, a scrape once every verdict was counted, and
    what each process logged."""
    folder = tmp_path_factory.mktemp("telemetry")
    (folder / "metrics").mkdir()
    port = _free_port()
    redis = start_redis(port, "--save", "", "--appendonly", "no", "--dir", str(folder))
    env = {"REDIS_URL": f"redis://127.0.0.1:{port}/0", "WEB_CONCURRENCY": "2",
           "PROMETHEUS_MULTIPROC_DIR": str(folder / "metrics"), "LOG_LEVEL": "INFO",
           "TABLELOG_LOG_FORMAT": "json"}
    web_log, worker_log = folder / "web.log", folder / "workers.log"
    try:
        with serve(env, workers=2, web_log=web_log, worker_log=worker_log) as http:
            played = _Played(http)
            _play(played)
            scraped = _settled_scrape(http, played)
    finally:
        redis.terminate()
        redis.wait(10)
    return played, scraped, _lines(web_log), _lines(worker_log)


def _settled_scrape(http, played: _Played) -> str:
    """A scrape once the workers counted every verdict the clients saw (a worker counts a
    verdict right after its commit, which a waiting client may see first) and both web
    processes wrote their gauges."""
    deadline = time.monotonic() + _SETTLE_S
    while True:
        answer = http.get("/metrics")
        assert answer.status_code == 200, answer.text
        text = answer.text
        samples = _samples(text)
        counted = sum(v for name, _, v in samples if name == "tablelog_verdicts_total")
        webs = {labels["pid"] for name, labels, _ in samples if name == "tablelog_followers_most"}
        if counted >= sum(played.verdicts.values()) and len(webs) == 2:
            return text
        if time.monotonic() > deadline:
            return text  # the assertions say what is missing
        time.sleep(0.1)


def _samples(text: str) -> list[tuple[str, dict[str, str], float]]:
    return [(s.name, s.labels, s.value) for family in text_string_to_metric_families(text)
            for s in family.samples]


def _lines(path: Path) -> list[dict]:
    """Every line written, each of which must be one JSON object."""
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    parsed = [json.loads(line) for line in lines]
    assert all(isinstance(line, dict) for line in parsed)
    return parsed


def test_the_verdicts_counted_are_those_the_clients_were_given(scene):
    played, scraped, _, _ = scene
    counted = Counter({(labels["outcome"], labels["code"]): int(value)
                       for name, labels, value in _samples(scraped)
                       if name == "tablelog_verdicts_total" and value})
    assert played.verdicts["accepted", ""] and played.verdicts["rejected", "not-your-turn"]
    assert counted == played.verdicts
    latency = {name: value for name, labels, value in _samples(scraped)
               if name.startswith("tablelog_verdict_seconds_") and "le" not in labels}
    assert latency["tablelog_verdict_seconds_count"] == sum(played.verdicts.values())


def test_the_refusals_counted_are_those_the_clients_were_given(scene):
    played, scraped, _, _ = scene
    counted = Counter({(labels["status"], labels["code"]): int(value)
                       for name, labels, value in _samples(scraped)
                       if name == "tablelog_refusals_total" and value})
    assert counted == played.refusals
    assert {("422", "not-your-turn"), ("400", "invalid-move"), ("401", "bad-token")} <= set(
        counted)


def test_every_move_posted_is_timed_under_its_route(scene):
    played, scraped, _, _ = scene
    timed = sum(value for name, labels, value in _samples(scraped)
                if name == "tablelog_http_request_duration_seconds_count"
                and labels["route"] == _MOVES_ROUTE and labels["method"] == "POST")
    assert timed == played.moves_posted + 1  # the one with a wrong token too


def test_the_scrape_sees_both_web_processes_and_both_workers(scene):
    _, scraped, _, _ = scene
    samples = _samples(scraped)
    webs = {labels["pid"] for name, labels, _ in samples if name == "tablelog_followers_most"}
    assert len(webs) == 2
    gauges = {name: value for name, labels, value in samples if not labels}
    assert gauges["tablelog_workers_alive"] == 2
    assert gauges["tablelog_store_up"] == 1
    assert gauges["tablelog_moves_pending"] == 0
    assert gauges["tablelog_redis_used_memory_bytes"] > 0


def test_no_metric_names_a_game_a_token_or_a_player(scene):
    played, scraped, _, _ = scene
    secrets = [*(g.id for g in played.games), *played.tokens, "ann", "bob", "cid"]
    values = {value for _, labels, _ in _samples(scraped) for value in labels.values()}
    assert [v for v in values if any(s in v for s in secrets)] == []
    assert [s for s in secrets[:-3] if s in scraped] == []


def test_every_metric_the_dashboard_names_is_exported(scene):
    _, scraped, _, _ = scene
    named = set(re.findall(r"tablelog_[a-z_]+", _DASHBOARD.read_text()))
    exported = {name for name, _, _ in _samples(scraped)}
    assert named and named - exported == set()


def test_every_process_logs_json_lines_with_no_move_or_card(scene):
    _, _, web, workers = scene
    assert {line["process"] for line in web} == {"web"}
    assert {line["process"] for line in workers} == {"worker", "auditor"}
    assert any(line["logger"] == "gunicorn.error" for line in web)  # gunicorn's own
    assert any(line["logger"] == "rq.worker" for line in workers)  # RQ's own
    assert {key for line in web + workers for key in line} <= _LINE_FIELDS


def test_a_moves_request_id_is_on_its_web_and_verdict_lines_and_no_other(scene):
    played, _, web, workers = scene
    assert played.by_request
    for request_id, (game, seq) in played.by_request.items():
        named = [line for line in web + workers if line.get("request_id") == request_id]
        said = [(line["process"], line["event"]) for line in named]
        assert ("web", "request") in said and ("worker", "verdict") in said, request_id
        assert {(line.get("game"), line.get("seq")) for line in named} == {(game, seq)}
    verdicts = [line for line in workers if line["event"] == "verdict"]
    assert len(verdicts) == sum(played.verdicts.values())


def test_no_line_holds_a_token(scene):
    played, _, web, workers = scene
    written = json.dumps(web + workers)
    assert played.tokens and [t for t in played.tokens if t in written] == []


