"""A batch: commands written at once on one connection, each answered as the client answers it."""

import time

import pytest
import redis

from store.batch import Batch


@pytest.fixture
def client(redis_url):
    own = redis.Redis.from_url(redis_url.rsplit("/", 1)[0] + "/3")
    own.flushdb()
    yield own
    own.close()


def test_each_command_is_answered_as_the_client_answers_it_alone(client):
    client.xadd("s", {"e": b"one"}, id="1-0")
    client.hset("h", "f", "v")
    client.zadd("z", {"m": 1.5})
    script = client.register_script("return {KEYS[1], ARGV[1]}")
    script(keys=["k"], args=["a"])  # Redis knows it now
    batch = Batch(client)
    read = batch.add("XREAD", "BLOCK", 10, "STREAMS", "s", "0-0")
    field = batch.add("HGET", "h", "f")
    score = batch.add("ZSCORE", "z", "m")
    ran = batch.script(script, ["k"], ["a"])
    batch.run()
    assert read.value == client.xread({"s": "0-0"}, block=10)
    assert field.value == client.hget("h", "f") == b"v"
    assert score.value == client.zscore("z", "m") == 1.5
    assert ran.value == [b"k", b"a"]


def test_an_answer_reads_itself_into_what_its_caller_wants(client):
    client.hset("h", "n", "7")
    batch = Batch(client)
    number = batch.add("HGET", "h", "n", read=int)
    batch.run()
    assert number.value == 7


def test_a_command_that_fails_answers_its_error_and_the_others_still_answer(client):
    client.set("text", "not a number")
    batch = Batch(client)
    failed = batch.add("INCR", "text")
    counted = batch.add("INCR", "count")
    batch.run()
    assert isinstance(failed.error, redis.ResponseError)
    with pytest.raises(redis.ResponseError):
        _ = failed.value
    assert counted.value == 1 and counted.error is None
    assert client.get("count") == b"1"


def test_a_batch_given_up_with_answers_unread_leaves_them_to_no_other_batch(redis_url):
    """A read that timed out leaves its answer coming on that connection: the next batch must
    not take it for its own (redis-py drops a connection whose read failed; a batch drops one
    it stopped reading for any other reason too)."""
    impatient = redis.Redis.from_url(redis_url, socket_timeout=0.2)
    with pytest.raises(redis.TimeoutError):
        _run(impatient, ("BLPOP", "never", 1))
    time.sleep(1.2)  # the BLPOP's nil answer has arrived by now, on the old connection
    assert _run(impatient, ("PING",), ("ECHO", "mine")) == [True, b"mine"]
    impatient.close()


def _run(client, *commands):
    batch = Batch(client)
    answers = [batch.add(*command) for command in commands]
    batch.run()
    return [answer.value for answer in answers]
