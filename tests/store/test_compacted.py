"""A compacted record read a span at a time (`store.compacted`): whatever a read asks for, from
whichever span, it is the log's, and only the spans it covers are chained."""

import gzip
from pathlib import Path

import orjson
import pytest

from engine import log
from store import compacted, dictionary

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
SECRET = ("seed", [])


def logged(path: Path) -> list[dict]:
    """A golden game's entries as a live log holds them: timed, chained, their keys sorted."""
    bodies = orjson.loads(gzip.decompress(path.read_bytes()))["entries"]
    timed = [{**body, "at": f"2026-02-01T00:{n // 60:02d}:{n % 60:02d}.{n % 1000:03d}Z"}
             for n, body in enumerate(bodies)]
    return [orjson.loads(orjson.dumps(e, option=orjson.OPT_SORT_KEYS))
            for e in log.chain(log.GENESIS, timed)]


@pytest.fixture(scope="module", params=["coloretto/1/3p", "hermit/1/4p"])
def entries(request) -> list[dict]:
    return logged(GOLDEN / f"{request.param}.json.gz")


def opened(entries: list[dict], text: bytes | None = None) -> compacted.Record:
    """A record of `entries` read afresh (or of `text`, sealed as written), nothing decoded."""
    raw = (compacted.encode(entries, b'{"state":1}', b'{"score":1}') if text is None
           else dictionary.compressor().compress(text))
    return compacted.opened("g", raw, entries[-1]["hash"], SECRET, compacted.seal(raw))


def header(entries: list[dict]) -> dict:
    record = compacted.encode(entries, b"{}", b"{}")
    return orjson.loads(dictionary.decompress(record).split(b"\n")[0])


def test_a_long_log_is_kept_in_spans_of_64_a_short_one_in_spans_of_128(entries):
    assert (compacted.span_of(512), compacted.span_of(513)) == (128, 64)
    every = compacted.span_of(len(entries))
    assert header(entries) == {
        "version": len(entries), "span": every,
        "links": [e["hash"] for e in entries[every - 1:-1:every]]}


@pytest.mark.parametrize("limit", [1, 7, 64, 100, None])
def test_every_page_read_afresh_is_the_logs(entries, limit):
    for after in range(0, len(entries) + 3, 29):
        end = None if limit is None else after + limit
        assert opened(entries).read(after, limit=limit) == entries[after:end], after
        assert opened(entries).read(after, upto=end) == entries[after:end], after
        assert list(opened(entries).past(after)) == entries[after:], after


def test_the_state_and_the_score_are_read_as_written(entries):
    record = opened(entries)
    assert (record.final_state(), record.kept_score()) == (b'{"state":1}', b'{"score":1}')


def test_a_read_chains_only_the_spans_it_covers(entries):
    # The record rewritten with an entry of its first span changed, and sealed again: a read
    # of that span is refused, a read of the last span is served.
    text = dictionary.decompress(compacted.encode(entries, b"{}", b"{}")).split(b"\n")
    first = orjson.loads(text[1])
    first[3]["@"] += 1
    text[1] = orjson.dumps(first)
    with pytest.raises(compacted.Broken, match="chain to"):
        opened(entries, b"\n".join(text)).read(0, limit=5)
    last = len(entries) - 5
    assert opened(entries, b"\n".join(text)).read(last) == entries[last:]
    with pytest.raises(compacted.Broken):
        opened(entries, b"\n".join(text)).check()


def test_a_record_not_as_written_is_not_read(entries):
    raw = compacted.encode(entries, b"{}", b"{}")
    record = compacted.opened("g", raw, entries[-1]["hash"], SECRET, "another digest")
    for read in (record.read, record.final_state, record.kept_score, record.check):
        with pytest.raises(compacted.Broken, match="not those compaction wrote"):
            read()
