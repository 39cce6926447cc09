"""Table actions on the command line against the live service: takebacks by the table and by
a seat (accepted, declined), concessions, abandoned games and timeout claims; each verdict or
refusal as `play` says one, and what `show`, `log` and `score` then say of the table."""

from __future__ import annotations

import re
import time


def new_game(tablelog, seed: str, *options: str, title: str = "coloretto", seats: int = 3) -> str:
    players = [f"p{seat}" for seat in range(seats)]
    return tablelog.json("new", title, *players, "--seed", seed, *options)["id"]


def played(tablelog, game: str, moves: int) -> list[int]:
    """The first legal move, `moves` times: the seqs of their verdicts."""
    return [tablelog.json("play", game, "1")["version"] for _ in range(moves)]


def done(result) -> str:
    assert result.exit_code == 0, result.output
    return result.stdout


def rejected(result, code: str) -> str:
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith("Rejected: ") and f"({code})." in result.stderr
    assert "Traceback" not in result.output
    return result.stderr


def lines_of(log: str) -> dict[int, str]:
    return {int(line.split()[0]): line for line in log.splitlines()}


def test_the_tables_takeback_restores_its_entry_at_once_and_the_log_marks_what_it_undid(
        tablelog):
    game = new_game(tablelog, "table-takeback")
    verdicts = played(tablelog, game, 3)
    then = tablelog.json("show", game, "--at", str(verdicts[0]))
    said = done(tablelog("takeback", game, str(verdicts[0])))
    assert said.startswith("Accepted (entry ")
    assert f"the game was taken back to entry {verdicts[0]}" in said
    now = tablelog.json("show", game)
    assert now["state"] == then["state"] and now["to_act"] == then["to_act"]
    log = lines_of(done(tablelog("log", game)))
    # A move is said on its verdict's line: the two moves after entry N are taken back.
    assert "(taken back)" not in log[verdicts[0]]
    assert all(log[v].endswith("(taken back)") for v in verdicts[1:])
    assert sum("(taken back)" in line for line in log.values()) == 2
    assert tablelog.json("log", game)[-1]["effects"][0]["undone"] == [v - 1 for v in
                                                                      verdicts[1:]]


def test_a_seats_takeback_is_a_proposal_applied_once_the_others_accept(tablelog):
    game = new_game(tablelog, "seat-takeback", "--option", "deals=1")
    verdicts = played(tablelog, game, 2)
    then = tablelog.json("show", game, "--at", str(verdicts[0]))["state"]
    proposed = done(tablelog("takeback", game, str(verdicts[0]), "--seat", "1"))
    of = int(proposed.split("(entry ", 1)[1].split(",")[0])
    assert f"p1 proposed taking the game back to entry {verdicts[0]}" in proposed
    assert f"`tablelog accept {game} {of} --seat S`" in proposed
    shown = done(tablelog("show", game))
    assert (f"takeback to entry {verdicts[0]} proposed by p1 as entry {of}; accepted by nobody"
            " yet") in shown
    done(tablelog("accept", game, str(of), "--seat", "0"))
    assert f"as entry {of}; accepted by p0" in done(tablelog("show", game))
    last = done(tablelog("accept", game, str(of), "--seat", "2"))
    assert f"p2 accepted the takeback proposed as entry {of}" in last
    assert f"the game was taken back to entry {verdicts[0]}" in last
    assert tablelog.json("show", game)["state"] == then
    assert "takeback to entry" not in done(tablelog("show", game))


def test_a_declined_takeback_is_closed_and_accepting_it_then_is_rejected(tablelog):
    game = new_game(tablelog, "declined", "--option", "deals=1")
    played(tablelog, game, 2)
    of = tablelog.json("takeback", game, "1", "--seat", "0")["seq"]
    declined = done(tablelog("decline", game, str(of), "--seat", "2"))
    assert f"p2 declined the takeback proposed as entry {of}" in declined
    late = rejected(tablelog("accept", game, str(of), "--seat", "1"), "no-such-proposal")
    assert f"entry {of} is not an open takeback proposal" in late
    own = tablelog.json("takeback", game, "1", "--seat", "0")["seq"]
    rejected(tablelog("accept", game, str(own), "--seat", "0"), "own-proposal")


def test_a_takeback_to_an_entry_not_in_play_is_rejected_naming_the_rule(tablelog):
    game = new_game(tablelog, "bad-entry", "--option", "deals=1")
    played(tablelog, game, 1)
    said = rejected(tablelog("takeback", game, "2"), "takeback-bad-entry")
    assert "entry 2 is not one" in said
    assert tablelog("takeback", game, "0").exit_code == 2  # no entry 0: bad usage


def test_a_conceded_seat_is_shown_scored_and_played_by_the_service(tablelog):
    game = new_game(tablelog, "concede", "--option", "deals=1")
    # The table concedes only for a seat it names.
    unnamed = tablelog("concede", game)
    assert unnamed.exit_code == 2 and "(seat-required)." in unnamed.stderr
    assert "p1 conceded: the service plays their turns" in done(
        tablelog("concede", game, "--seat", "1"))
    rejected(tablelog("concede", game, "--seat", "1"), "seat-conceded")
    assert "conceded (the service plays their turns): p1" in done(tablelog("show", game))
    log = ""
    # p0's turn (a draw, then a card placed) passes to p1: the service plays it, soon after.
    for _ in range(20):
        if tablelog.json("show", game)["to_act"] == [0]:
            played(tablelog, game, 1)
        log = done(tablelog("log", game))
        if "(played for a conceded seat)" in log:
            break
        time.sleep(0.1)
    assert any(line.endswith("(played for a conceded seat)") and " p1 " in f" {line} "
               for line in log.splitlines()), log
    standings = [line.strip() for line in done(tablelog("score", game)).splitlines()
                 if re.match(r"\d p\d: ", line)]
    assert [line.endswith(", rank 3, conceded") for line in standings] == [False, True, False]


def test_the_table_abandons_a_game_which_is_listed_shown_and_scored_as_abandoned(tablelog):
    game = new_game(tablelog, "abandon", "--option", "deals=1")
    played(tablelog, game, 2)
    said = done(tablelog("abandon", game, "--reason", "the pub closed"))
    assert "the game was abandoned: the pub closed" in said
    shown = done(tablelog("show", game))
    assert "· abandoned · round" in shown and "abandoned: the pub closed" in shown
    assert "* to act: nobody" in shown
    assert done(tablelog("score", game)).startswith("Score of an abandoned game, not final,")
    listed = tablelog.json("games", "--status", "abandoned")["games"]
    assert game in [g["id"] for g in listed]
    assert game not in [g["id"] for g in tablelog.json("games", "--status", "finished")["games"]]
    for more in (["play", game, "1"], ["abandon", game]):
        late = tablelog(*more)
        assert late.exit_code == 1
        assert late.stderr == f"Rejected: game {game} is abandoned; it takes no more moves.\n"


def test_seats_vote_to_abandon_until_every_seat_has(tablelog):
    game = new_game(tablelog, "votes", title="hermit", seats=2)
    assert "p0 voted to abandon the game" in done(tablelog("abandon", game, "--seat", "0"))
    assert "votes to abandon: p0" in done(tablelog("show", game))
    rejected(tablelog("abandon", game, "--seat", "0"), "already-voted")
    done(tablelog("abandon", game, "--seat", "1"))
    assert tablelog.json("show", game)["status"] == "abandoned"


def test_a_timeout_claim_is_rejected_without_a_clock_or_before_the_limit(tablelog):
    unclocked = new_game(tablelog, "no-clock", "--option", "deals=1")
    said = rejected(tablelog("claim-timeout", unclocked), "no-turn-clock")
    assert "created without option turn_limit_s" in said
    clocked = new_game(tablelog, "early", "--option", "deals=1", "--option", "turn_limit_s=600")
    rejected(tablelog("claim-timeout", clocked, "--seat", "1"), "claim-too-early")
    shown = done(tablelog("show", clocked))
    assert "turn clock: 10 min 00 s a turn" in shown
    waiting = [line for line in shown.splitlines() if "0 p0" in line and "since" in line]
    assert waiting and "for " in waiting[0] and "past the limit" not in waiting[0]


def test_a_timeout_is_claimed_once_the_turn_limit_has_passed(tablelog):
    game = new_game(tablelog, "late", "--option", "deals=1", "--option", "turn_limit_s=1")
    time.sleep(1.2)
    assert "past the limit" in done(tablelog("show", game))
    own = rejected(tablelog("claim-timeout", game, "--seat", "0"), "claim-own-timeout")
    assert "make your move" in own
    said = done(tablelog("claim-timeout", game, "--seat", "1"))
    assert "the turn clock of 1 seconds ran out for p0" in said and "p0 conceded" in said
    score = done(tablelog("score", game))
    assert "0 p0: " in score and "conceded, thinking time 1 s" in score
    assert "1 p1: " in score and "thinking time 0 s" in score


def test_a_table_action_played_as_json_with_the_table_token_is_the_tables_own(tablelog):
    game = new_game(tablelog, "table-json")
    verdicts = played(tablelog, game, 2)
    said = done(tablelog("play", game, f'{{"type": "takeback", "to": {verdicts[0]}}}'))
    assert f"the game was taken back to entry {verdicts[0]}" in said
    assert tablelog.json("log", game)[-2]["seat"] == "table"
