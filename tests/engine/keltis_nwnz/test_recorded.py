"""A Keltis "Neue Wege, neue Ziele" game recorded at a real table: the table's setup names the
path tiles laid on the board and deals every hand face down, a card drawn from the deck goes
into its hand unknown, and a card played to move a pawn or discarded names itself: one still
unaccounted for, or one the hand is known to hold."""

import random
from collections import Counter
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.game import TABLE, Table
from engine.games import GAMES
from engine.games.keltis_nwnz.game import GAME
from engine.games.keltis_nwnz.state import TILES, DrewUnseen, Moved, State, TilesLaid
from engine.playout import play as playout
from engine.playout import record, transcribe
from engine.recorded import UNKNOWN
from tests.engine.keltis_nwnz.tables import dealt, play, refused, with_seat
from tests.engine.refusals import refusal
from tests.engine.transcribed import brief, legal_throughout, survives_the_codec

# The board's first tile spot is c2 (green, one step from the start): a discard tile there.
LAID = ["discard", *(Counter(TILES) - Counter(["discard"])).elements()]
SETUP = {"type": "setup", "tiles": LAID}


def recorded(seats: int = 3) -> State:
    return GAME.deal(Table(seats, GAME.options(seats, {}), "", recorded=True))


def set_up(seats: int = 3) -> State:
    return GAME.apply(recorded(seats), TABLE, SETUP, 2).state


def move(card: str, to: str = "c2", pawn: str = "s1") -> dict:
    return {"type": "move", "pawn": pawn, "to": to, "card": card}


def discard(card: str) -> dict:
    return {"type": "discard", "card": card}


def draw(source: str = "deck") -> dict:
    return {"type": "draw", "from": source}


def hand(state: State, seat: int) -> tuple[str, ...]:
    return state.players[seat].hand


# -- the setup: the tiles laid, the deal face down ---------------------------------------------


def test_a_recorded_game_waits_for_its_setup_and_lays_and_deals_nothing():
    state = recorded(3)
    assert state.tiles == () and all(p.hand == () for p in state.players)
    view = GAME.view(state, TABLE)
    assert view["recorded"] and view["setup_needed"] and view["deck_size"] is None
    assert view["tiles"] == [] and GAME.legal_moves(state, 0) == ()
    refused(state, 0, move("G3"), "setup-first", "tiles")
    refused(state, 0, draw(), "setup-first")


def test_the_setup_lays_the_tiles_in_the_boards_spot_order_and_deals_face_down():
    for seats, deck in ((2, 64), (3, 86), (4, 78)):
        outcome = GAME.apply(recorded(seats), TABLE, SETUP, 2)
        assert outcome.facts == (TilesLaid(22, 8, deck, 30 if seats == 2 else 0),)
        state = outcome.state
        spots = GAME.layout.tile_spots
        assert [(t.cell, t.tile) for t in state.tiles] == list(zip(spots, LAID, strict=True))
        assert all(hand(state, s) == (UNKNOWN,) * 8 for s in range(seats))
        assert len(state.piles.deck) == deck == state.ledger.unaccounted
        view = GAME.view(state, 1)
        assert not view["setup_needed"] and view["deck_size"] == deck
        assert [p["hand_size"] for p in view["players"]] == [8] * seats
        assert view["unaccounted"]["R3"] == 2 and view["tiles"][0]["tile"] == "discard"


def test_the_setup_is_the_tables_once_and_only_in_a_recorded_game():
    refusal(lambda: GAME.apply(recorded(), 0, SETUP, 2), "setup-by-table", "table_token")
    refusal(lambda: GAME.apply(set_up(), TABLE, SETUP, 5), "setup-recorded", "entry 2")
    refusal(lambda: GAME.apply(dealt(), TABLE, SETUP, 2), "not-recorded", "seed")


def test_the_setup_names_the_tile_set_of_the_box():
    state = recorded()
    too_many = {"type": "setup", "tiles": ["clover", *LAID[1:]]}
    refused(state, TABLE, too_many, "tile-set", "5 discard", "6 clover, 4 discard")
    refused(state, TABLE, {"type": "setup", "tiles": LAID[1:]}, "tile-set", "4 discard")
    refused(state, TABLE, {"type": "setup", "tiles": [*LAID[1:], "moon"]}, "tile-set", "1 moon")
    refused(state, TABLE, {"type": "setup"}, "malformed-move", "tile spots")


def test_the_seeded_deal_is_recorded_as_its_tiles_in_spot_order():
    seeded = dealt()
    assert GAME.recorded_setup(seeded) == {"type": "setup",
                                           "tiles": [t.tile for t in seeded.tiles]}
    state = GAME.apply(recorded(2), TABLE, GAME.recorded_setup(seeded), 2).state
    assert state.tiles == seeded.tiles


# -- cards named as they come into view -------------------------------------------------------


def test_a_card_played_from_a_hand_of_unknown_cards_names_itself():
    state, facts = play(set_up(), 0, move("R4", "c1"), seq=3)
    assert facts == [Moved(0, "s1", GAME.layout.start, "c1", "R4").to_json()]
    assert state.players[0].rows[0] == ("R4",) and hand(state, 0) == (UNKNOWN,) * 7
    assert state.ledger.named == (("R4", 3),) and state.phase == "draw"


def test_a_card_drawn_from_the_deck_goes_into_the_hand_unknown():
    state, facts = play(set_up(), 0, discard("R7"), draw(), seq=3)
    assert facts[-1] == DrewUnseen(0).to_json()
    assert hand(state, 0) == (UNKNOWN,) * 8 and len(state.piles.deck) == 85
    assert state.ledger.unaccounted == 85 and state.turn == 1


def test_a_card_taken_from_a_discard_pile_is_known_and_played_without_naming_it_again():
    state, _ = play(set_up(), 0, discard("G7"), draw(), seq=3)
    state, _ = play(state, 1, discard("R2"), draw("G"), seq=5)
    assert sorted(hand(state, 1)) == ["?"] * 7 + ["G7"]
    named = state.ledger.named
    after, _ = play(replace(state, turn=1, phase="play"), 1, move("G7"), seq=9)
    assert after.ledger.named == named and hand(after, 1) == (UNKNOWN,) * 7


def test_a_card_whose_copies_are_all_seen_is_refused_naming_the_entries():
    state, _ = play(set_up(), 0, discard("R3"), draw(), seq=3)
    state, _ = play(state, 1, discard("R3"), draw(), seq=5)
    refused(state, 2, discard("R3"), "card-seen", "all 2 R3", "entries 3, 5")
    refused(state, 2, move("R3", "c1"), "card-seen", "R3")
    refused(state, 2, discard("R11"), "no-such-card", "R11")
    refused(state, 2, discard(UNKNOWN), "no-such-card")


def test_a_hand_known_in_full_plays_only_its_own_cards():
    state = with_seat(set_up(), 0, hand=("G7", "R2"))
    refused(state, 0, discard("B4"), "not-in-hand", "B4")
    refused(state, 0, move("B4", "c3"), "not-in-hand", "B4")


def test_the_cell_and_row_rules_judge_the_card_named():
    state = set_up()
    refused(state, 0, move("R3", "c2"), "wrong-colour", "green")
    state = with_seat(state, 0, rows={"G": ("G3", "G5")})
    refused(state, 0, move("G4"), "row-direction")


def test_a_hand_holds_eight_cards_a_draw_beyond_is_refused():
    state = set_up()
    refused(state, 0, draw(), "play-first")
    state, _ = play(state, 0, discard("G7"), draw(), seq=3)
    assert len(hand(state, 0)) == 8 and state.turn == 1
    refused(replace(state, turn=0), 0, draw(), "play-first")


# -- the discard tile: a card of the hand, or the top of a display row ---------------------------


def at_the_discard_tile(rows: dict | None = None) -> State:
    state = with_seat(set_up(), 0, rows=rows or {"R": ("R1", "R2")})
    state, _ = play(state, 0, move("G3"), seq=3)
    assert state.phase == "discard-tile"
    return state


def test_a_discard_tile_names_a_card_of_the_hand_or_takes_the_top_of_a_row():
    state = at_the_discard_tile()
    from_hand, facts = play(state, 0, {"type": "discard-tile", "card": "B9"}, seq=4)
    assert facts[0]["source"] == "hand" and ("B9", 4) in from_hand.ledger.named
    assert hand(from_hand, 0) == (UNKNOWN,) * 6
    from_row, facts = play(state, 0, {"type": "discard-tile", "card": "R2"}, seq=4)
    assert facts[0]["source"] == "R" and from_row.players[0].rows[0] == ("R1",)
    assert hand(from_row, 0) == (UNKNOWN,) * 7 and from_row.ledger.named == state.ledger.named
    copy, facts = play(state, 0, {"type": "discard-tile", "card": "R2", "from": "hand"}, seq=4)
    assert facts[0]["source"] == "hand" and copy.players[0].rows[0] == ("R1", "R2")


def test_a_discard_tile_refuses_a_card_neither_held_nor_on_top():
    state = at_the_discard_tile()
    refused(state, 0, {"type": "discard-tile", "card": "R1", "from": "display"}, "not-on-top")
    known = with_seat(state, 0, hand=("Y5",))
    refused(known, 0, {"type": "discard-tile", "card": "R1"}, "not-discardable", "R1")
    refused(known, 0, {"type": "discard-tile", "card": "B9", "from": "hand"}, "not-in-hand")


# -- what is legal with unknown cards ----------------------------------------------------------


def test_the_legal_moves_offer_every_card_a_hand_of_unknown_cards_may_hold():
    state = set_up()
    moves = GAME.legal_moves(state, 0)
    discards = {m["card"] for m in moves if m["type"] == "discard"}
    assert discards == set(state.ledger.possible())
    assert move("G10") in moves and move("R3", "c2") not in moves
    tile = GAME.legal_moves(at_the_discard_tile(), 0)
    assert {"type": "discard-tile", "card": "R2", "from": "display"} in tile
    assert {"type": "discard-tile", "card": "R2", "from": "hand"} in tile
    assert {"type": "discard-tile", "card": "R1", "from": "display"} not in tile


# -- a recorded game is the seeded game it records ---------------------------------------------


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.sampled_from([2, 3, 4]), seed=st.text(max_size=8))
def test_a_seeded_game_entered_as_a_scorekeeper_would_scores_the_same(seats, seed):
    game = GAMES["keltis-nwnz"]
    seeded = playout(game, seats, seed, random.Random(seed), {})
    again = record(game, seats, {}, list(transcribe(seeded)))
    players = [f"p{s}" for s in range(seats)]
    want, got = (game.score(p.final).to_json(players) for p in (seeded, again))
    assert got["final"] and brief(got) == brief(want)
    seen = [game.view(p.final, TABLE)["players"] for p in (seeded, again)]
    assert seen[0] == seen[1]


def test_every_move_a_recorded_game_makes_is_among_its_legal_moves():
    legal_throughout(GAME, 3, "legal")


def test_every_recorded_state_survives_the_codec_and_a_seeded_one_has_no_ledger():
    survives_the_codec(GAME, 2, "codec")
