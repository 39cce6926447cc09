"""Following a live game: the log streamed as entries land, redacted, resumable, bounded.

The streamed answer is read lazily, so a test posts moves between two reads of the same open
stream and sees them arrive. An app whose connections live one second shows the bound.
"""

import random
import time

import orjson
import pytest

from service.streams import FOLLOWERS, FOLLOWERS_RETRY_S, Followers
from tests.api import create

SSE = {"Accept": "text/event-stream"}
NDJSON = {"Accept": "application/x-ndjson"}


@pytest.fixture(scope="module")
def brief(redis_url, workers):
    """The app with follow connections that last one second."""
    from service import create_app

    return create_app({"TESTING": True, "REDIS_URL": redis_url, "FOLLOW_SECONDS": 1}).test_client()


def sse_events(chunks):
    """Parse server-sent events out of an iterator of chunks: (id, data) pairs, or comments."""
    for chunk in chunks:
        for block in chunk.decode().split("\n\n"):
            fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
            if "data" in fields:
                yield int(fields["id"]), orjson.loads(fields["data"])
            elif block.startswith(":"):
                yield None, None


def test_a_follower_gets_the_log_then_each_entry_as_it_lands(client):
    game = create(client)
    stream = client.get(game.url("/events?follow=1"), headers=NDJSON)
    assert stream.content_type == "application/x-ndjson"
    # What lands at once comes in one chunk: a client reads lines, not chunks.
    lines = (orjson.loads(line) for chunk in stream.response for line in chunk.splitlines()
             if line.strip())
    assert next(lines)["type"] == "game-created"
    game.move(0, {"type": "draw"})
    submitted, accepted = next(lines), next(lines)
    assert (submitted["seq"], submitted["type"]) == (2, "move-submitted")
    assert (accepted["seq"], accepted["type"]) == (3, "move-accepted")
    assert submitted["move"] is None, "a spectator never sees a move before it is accepted"
    stream.close()


def test_a_seat_follows_its_own_submissions_unredacted(client):
    game = create(client)
    stream = client.get(game.url("/events?follow=1&after=1"), headers={**SSE, **game.seat(0)})
    assert stream.content_type.startswith("text/event-stream")
    events = (e for e in sse_events(stream.response) if e[0] is not None)
    game.move(0, {"type": "draw"})
    seq, entry = next(events)
    assert seq == 2 and entry["move"] == {"type": "draw"}
    stream.close()


def test_a_connection_ends_after_its_lifetime_with_heartbeats(brief):
    game = create(brief)
    started = time.monotonic()
    body = brief.get(game.url("/events?follow=1&after=1"), headers=SSE).get_data()
    # It ended by itself (the read returned), not before its one second: the server's
    # deadline is taken after `started`, so however slow the machine this holds.
    assert time.monotonic() - started >= 1
    assert body.startswith(b"retry: ") and b": waiting" in body and b"data:" not in body


def test_reconnecting_with_last_event_id_resumes_after_it(brief):
    game = create(brief)
    game.move(0, {"type": "draw"})
    body = brief.get(game.url("/events?follow=1"), headers={**SSE, "Last-Event-ID": "2"})
    assert [seq for seq, _ in sse_events([body.get_data()]) if seq] == [3]
    bad = brief.get(game.url("/events?follow=1"), headers={**SSE, "Last-Event-ID": "x"})
    assert bad.status_code == 400 and bad.json["code"] == "bad-last-event-id"


def test_following_a_finished_game_ends_at_its_last_entry_without_waiting(client):
    game = create(client, options={"deals": 1})
    game.play_to_end(random.Random(3))
    version = client.get(game.url()).json["version"]
    lines = client.get(game.url("/events?follow=1"), headers=NDJSON).get_data().splitlines()
    assert len(lines) == version and orjson.loads(lines[-1])["type"] == "game-finished"
    # A follower says so before it waits (`: waiting`): these never waited for more.
    body = client.get(game.url("/events?follow=1"), headers=SSE).get_data()
    events = list(sse_events([body]))
    assert (None, None) not in events and events[-1][1]["type"] == "game-finished"
    tail = client.get(game.url(f"/events?follow=1&after={version}"), headers=SSE)
    assert tail.get_data() == b"retry: 1000\n\n"


def test_following_needs_a_streaming_format(client):
    game = create(client)
    answer = client.get(game.url("/events?follow=1"), headers={"Accept": "application/json"})
    assert answer.status_code == 406 and answer.json["code"] == "not-acceptable"


def test_past_its_places_a_follower_is_refused_and_a_closed_stream_gives_its_place_back(client):
    """The places a web process keeps for followers (`service.server` puts them in the
    environ); a stream closed before its first piece was read gives its place back too."""
    game = create(client)
    places = Followers(1)

    def follow():
        return client.get(game.url("/events?follow=1"), headers=SSE,
                          environ_base={FOLLOWERS: places})

    held = follow()
    assert held.status_code == 200 and places.held == 1
    refused = follow()
    assert refused.status_code == 503 and refused.json["code"] == "followers-full"
    assert refused.headers["Retry-After"] == FOLLOWERS_RETRY_S
    held.close()
    assert places.held == 0
    again = follow()
    assert again.status_code == 200 and places.held == 1
    again.close()
    assert places.held == 0
