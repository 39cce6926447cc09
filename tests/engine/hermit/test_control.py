"""Control of a group (ranks, the Ace annulling its Crown) and completing quartets."""

from engine.games.hermit import GAME
from engine.games.hermit.cards import rank_in
from tests.engine.hermit.support import Driver, facts_of, laid_out


def test_seed_example_ace_annuls_the_crown_and_the_five_takes_the_quartet():
    """The worked example of the original text ("Esempio", Tizio, Caio, Sempronio), which is
    Example 1 of the digest, step by step."""
    # Tizio (seat 0), Caio (seat 1), Sempronio (seat 2); the group holds the 3 of Moons/Waves.
    state = laid_out(
        3,
        [["huntress", "end"], ["ace-moons", "mill"], ["forest", "cave"]],
        [(["journey"], 1), (["sea"], 2)],
    )
    play = Driver(state)
    # Tizio's Crown of Moons is above the 3: it takes control, the group moves to him.
    facts = play(0, "play", "huntress", 0)
    assert facts_of(facts, "played")[0].took_control
    assert play.group(0).controller == 0
    # Caio's Ace annuls the Crown, but is lower than the 3: the group stays with Tizio.
    facts = play(1, "play", "ace-moons", 0)
    assert not facts_of(facts, "played")[0].took_control
    assert play.group(0).controller == 0
    # Sempronio's 5: with the Crown annulled it is the highest card, so it takes control ...
    facts = play(2, "play", "forest", 0)
    assert facts_of(facts, "played")[0].took_control
    # ... and as the fourth card it completes the quartet, which Sempronio takes.
    taken = facts_of(facts, "quartet-taken")[0]
    assert taken.taken_by == 2
    assert taken.cards == ("journey", "huntress", "ace-moons", "forest")
    assert [c.name for c in play.state.piles[2]] == ["journey", "huntress", "ace-moons", "forest"]
    # Derived: the Crown of Moons is the Huntress, 10 points although it was annulled.
    sempronio = GAME.score(play.state).seats[2]
    assert sempronio.total == 10
    huntress = sempronio.components[0]
    assert huntress.label == "huntress" and "even when annulled" in huntress.detail
    assert huntress.events == (2, 6)  # played at entry 2, taken with the quartet at entry 6


def test_a_card_equal_to_the_highest_takes_control():
    state = laid_out(3, [["mountain", "end"], ["mill"], ["cave"]], [(["sailor", "journey"], 1)])
    play = Driver(state)
    play(0, "play", "mountain", 0)  # 4 ties the sailor's 4
    assert play.group(0).controller == 0


def test_a_card_below_the_highest_leaves_the_group_where_it_is():
    state = laid_out(3, [["author", "end"], ["mill"], ["cave"]], [(["sailor", "journey"], 1)])
    play = Driver(state)
    play(0, "play", "author", 0)
    assert play.group(0).controller == 1


def test_playing_onto_ones_own_group_keeps_it():
    state = laid_out(3, [["pact", "end"], ["mill"], ["cave"]], [(["journey"], 0)])
    play = Driver(state)
    facts = play(0, "play", "pact", 0)
    assert play.group(0).controller == 0 and facts_of(facts, "played")[0].controller == 0


def test_ace_ranks_below_two_and_crown_above_nine():
    assert rank_in("ace-moons", ("ace-moons",)) < rank_in("author", ("author",))
    assert rank_in("huntress", ("pact", "huntress")) > rank_in("pact", ("pact", "huntress"))


def test_a_crown_beside_the_ace_of_its_suit_ranks_below_that_ace_whichever_came_first():
    before = ("ace-moons", "huntress")
    after = ("huntress", "ace-moons")
    for group in (before, after):
        assert rank_in("huntress", group) < rank_in("ace-moons", group)
    # The Ace of another suit annuls nothing.
    assert rank_in("huntress", ("ace-suns", "huntress")) == 10


def test_a_crown_played_into_a_group_holding_its_ace_never_takes_control():
    state = laid_out(3, [["huntress", "end"], ["mill"], ["cave"]], [(["ace-moons"], 1)])
    play = Driver(state)
    facts = play(0, "play", "huntress", 0)
    assert not facts_of(facts, "played")[0].took_control
    assert play.group(0).controller == 1


def test_an_ace_annulling_the_only_crown_is_then_the_highest_and_takes_control():
    state = laid_out(3, [["ace-moons", "end"], ["mill"], ["cave"]], [(["huntress"], 1)])
    play = Driver(state)
    play(0, "play", "ace-moons", 0)
    assert play.group(0).controller == 0


def test_only_the_card_just_played_moves_a_group():
    # Seat 1 controls via the Crown; seat 0's Ace annuls it, leaving the 3 highest, but the
    # 3 was played by seat 2: the group still stays with seat 1.
    state = laid_out(
        3, [["ace-moons", "end"], ["mill"], ["cave"]], [(["journey", "huntress"], 1)]
    )
    play = Driver(state)
    play(0, "play", "ace-moons", 0)
    assert play.group(0).controller == 1


def test_the_controller_takes_a_quartet_completed_by_a_lower_card():
    state = laid_out(
        3, [["mountain", "end"], ["mill"], ["cave"]], [(["author", "castle", "painter"], 2)]
    )
    play = Driver(state)
    facts = play(0, "play", "mountain", 0)
    assert facts_of(facts, "quartet-taken")[0].taken_by == 2
    assert len(play.state.piles[2]) == 4 and not play.state.piles[0]
    assert not play.state.groups


def test_a_five_player_centre_quartet_nobody_controls_is_set_aside():
    hands = [["author", "end"], ["mill"], ["cave"], ["sea"], ["bard"]]
    state = laid_out(5, hands, [(["sailor", "journey", "pact"], None), (["calamity"], 3)])
    play = Driver(state)
    facts = play(0, "play", "author", 0)
    assert facts_of(facts, "quartet-taken")[0].taken_by is None
    assert play.state.set_aside == ("sailor", "journey", "pact", "author")
    assert not any(play.state.piles)
    view = GAME.view(play.state, "spectator")
    assert view["set_aside"] == ["sailor", "journey", "pact", "author"]


def test_the_centre_group_is_taken_like_any_other_by_a_high_enough_card():
    hands = [["pact", "end"], ["mill"], ["cave"], ["sea"], ["bard"]]
    state = laid_out(5, hands, [(["journey"], None), (["calamity"], 3)])
    play = Driver(state)
    play(0, "play", "pact", 0)
    assert play.group(0).controller == 0


def test_an_unfinished_centre_group_counts_as_a_group_on_the_table():
    # Completing group 1 leaves the centre group alone on the table: no new starting cards.
    hands = [["pact", "end"], ["mill"], ["cave"], ["sea"], ["bard"]]
    state = laid_out(5, hands, [(["sailor"], None), (["author", "castle", "painter"], 3)])
    play = Driver(state)
    play(0, "play", "pact", 1)
    assert play.state.choosing is None and [g.number for g in play.state.groups] == [0]
    assert GAME.to_act(play.state) == (1,)
