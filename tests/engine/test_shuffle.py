"""The deterministic shuffle (docs/api.md, Deterministic shuffles): the published vectors and a
few by hand."""

import hashlib

import pytest

from engine.game import Table
from engine.shuffle import shuffle, uniform, word_stream
from tests.engine.vectors import vector

VECTORS = vector("shuffle.json")["vectors"]


@pytest.mark.parametrize("case", VECTORS, ids=lambda c: f"{c['seed']}|{c['label']}")
def test_shuffle_reproduces_every_published_vector(case):
    assert shuffle(case["cards"], case["seed"], case["label"]) == case["shuffled"]


def test_published_vectors_are_all_checked():
    assert len(VECTORS) == 5


def _words(seed: str, label: str):
    """The 32-bit words of the byte stream, derived with hashlib alone."""
    k = 0
    while True:
        digest = hashlib.sha256(f"{seed}|{label}|{k}".encode()).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(digest[i : i + 4], "big")
        k += 1


def _reference_shuffle(cards, seed, label):
    """A second, separately written Fisher-Yates from the end, for cross-checking."""
    words, out = _words(seed, label), list(cards)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        while True:
            x = next(words)
            if x < 2**32 - 2**32 % n:
                break
        j = x % n
        out[i], out[j] = out[j], out[i]
    return out


def test_three_cards_shuffle_worked_out_from_the_hash_bytes():
    digest = hashlib.sha256(b"s|deal-1|0").digest()
    first, second = (int.from_bytes(digest[i : i + 4], "big") for i in (0, 4))
    # Neither word falls in the rejected top of the range for n = 3 or n = 2 with this seed.
    assert first < 2**32 - 1 and second < 2**32
    cards = [0, 1, 2]
    j = first % 3
    cards[2], cards[j] = cards[j], cards[2]
    j = second % 2
    cards[1], cards[j] = cards[j], cards[1]
    assert shuffle([0, 1, 2], "s", "deal-1") == cards == [1, 2, 0]


@pytest.mark.parametrize(
    ("size", "seed", "label"),
    [(2, "x", "deal-1"), (9, "", "removed-color"), (20, "tablelog", "deal-3"), (76, "é", "t")],
)
def test_shuffle_agrees_with_an_independent_implementation(size, seed, label):
    # 20 and 76 cards need more than one digest, so the counter k is exercised too.
    cards = list(range(size))
    assert shuffle(cards, seed, label) == _reference_shuffle(cards, seed, label)


def test_word_stream_is_the_digests_of_seed_label_counter_read_four_bytes_at_a_time():
    stream = word_stream("seed", "deal-1")
    got = [next(stream) for _ in range(16)]
    digests = b"".join(hashlib.sha256(f"seed|deal-1|{k}".encode()).digest() for k in (0, 1))
    assert got == [int.from_bytes(digests[i : i + 4], "big") for i in range(0, 64, 4)]


def test_uniform_rejects_words_in_the_biased_top_of_the_range():
    # For n = 3 the limit is 2**32 - 1: the word 0xFFFFFFFF is rejected, the next one used.
    assert uniform(iter([0xFFFFFFFF, 7]), 3) == 7 % 3


def test_uniform_keeps_the_largest_unbiased_word():
    assert uniform(iter([2**32 - 2]), 3) == (2**32 - 2) % 3


def test_shuffle_leaves_its_input_alone_and_keeps_every_card():
    cards = ["a", "b", "b", "c"]
    out = shuffle(cards, "seed", "deal-1")
    assert cards == ["a", "b", "b", "c"]
    assert sorted(out) == sorted(cards)


def test_different_labels_give_independent_orders():
    cards = list(range(52))
    assert shuffle(cards, "tablelog", "deal-1") != shuffle(cards, "tablelog", "deal-2")


def test_table_deck_is_the_shuffle_labelled_deal_r_unless_explicit():
    canonical = tuple(range(10))
    table = Table(3, {}, "a")
    assert table.deck(1, canonical) == tuple(VECTORS[0]["shuffled"])
    assert table.deck(2, canonical) == tuple(shuffle(canonical, "a", "deal-2"))
    explicit = Table(3, {}, "a", decks=(tuple(reversed(canonical)),))
    assert explicit.deck(1, canonical) == tuple(reversed(canonical))
    assert explicit.deck(2, canonical) == table.deck(2, canonical)
    assert table.shuffled(canonical, "tiles") == tuple(shuffle(canonical, "a", "tiles"))
