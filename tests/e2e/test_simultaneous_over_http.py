"""Hermit's simultaneous start over HTTP: each seat chooses with its own token, and no seat,
spectator or event stream learns another seat's choice before every seat has chosen."""

from tests.api import create


def texts_seen_by(client, game, headers):
    state = client.get(game.url("/state"), headers=headers).text
    events = client.get(game.url("/events"), headers=headers).text
    ndjson = client.get(game.url("/events"),
                        headers={**headers, "Accept": "application/x-ndjson"}).text
    replay = client.get(game.url("/replay"), headers=headers).text
    return state + events + ndjson + replay


def test_starting_choices_stay_hidden_until_all_have_chosen(client):
    game = create(client, "hermit", ["ann", "bob", "cid"], seed="simultaneous")
    summary = client.get(game.url()).json
    assert summary["to_act"] == [0, 1, 2]
    hands = [client.get(game.url("/state"), headers=game.seat(s)).json["state"]["you"]["hand"]
             for s in range(3)]
    chosen = [hands[0][0], hands[1][0], hands[2][0]]

    for seat in (0, 1):
        answer = game.move(seat, {"type": "start", "card": chosen[seat]})
        assert answer.status_code == 201, answer.json
        assert answer.json["effects"][0]["card"] == chosen[seat]  # the chooser sees its card

    for seat in (0, 1):
        others = [s for s in range(3) if s != seat]
        for other in others:
            assert chosen[seat] not in texts_seen_by(client, game, game.seat(other))
        assert chosen[seat] not in texts_seen_by(client, game, {})
        mine = client.get(game.url("/state"), headers=game.seat(seat)).json["state"]
        assert mine["you"]["choice"] is not None
    waiting = client.get(game.url("/state")).json["state"]["choosing"]["waiting"]
    assert waiting == [2]
    assert client.get(game.url()).json["to_act"] == [2]
    verdict = client.get(game.url("/moves/2"), headers=game.seat(2)).json
    assert verdict["status"] == "accepted" and chosen[0] not in str(verdict)

    last = game.move(2, {"type": "start", "card": chosen[2]})
    assert last.status_code == 201
    public = client.get(game.url("/state")).json["state"]
    started = [g["cards"][0] for g in public["groups"]]
    assert sorted(started) == sorted(chosen)
    assert chosen[0] in client.get(game.url("/events")).text


def test_a_choice_cannot_be_made_for_another_seat_or_twice(client):
    game = create(client, "hermit", ["ann", "bob", "cid"], seed="twice")
    hand = client.get(game.url("/state"), headers=game.seat(0)).json["state"]["you"]["hand"]
    as_other = client.post(game.url("/moves"), headers=game.seat(0),
                           json={"seat": 1, "move": {"type": "start", "card": hand[0]}})
    assert as_other.status_code == 403
    assert game.move(0, {"type": "start", "card": hand[0]}).status_code == 201
    again = game.move(0, {"type": "start", "card": hand[1]})
    assert again.status_code == 422 and again.json["code"] == "already-chosen"
    # The reason of a rejected choice is for its seat alone.
    seq = again.json["seq"]
    assert client.get(game.url(f"/moves/{seq}"), headers=game.seat(1)).json["code"] is None
