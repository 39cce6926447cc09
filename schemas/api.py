"""Request and answer schemas of the HTTP API (CONTRACT.md sections 2 to 7).

Request schemas load and validate bodies and query strings; answer schemas document the
shapes every client may rely on and feed /openapi.json. Answers are built as plain dicts.
"""

from marshmallow import INCLUDE, RAISE, Schema, fields, validate

from engine.games import GAMES
from store.connection import LONGEST_WAIT_S


class Strict(Schema):
    class Meta:
        unknown = RAISE


class CreateGame(Strict):
    game = fields.String(required=True, validate=validate.OneOf(sorted(GAMES)))
    players = fields.List(
        fields.String(validate=validate.Length(min=1, max=64)),
        required=True,
        validate=validate.Length(min=1, max=8),
    )
    options = fields.Dict(keys=fields.String(), load_default=dict)
    seed = fields.String(validate=validate.Length(min=1, max=256))
    deck = fields.List(fields.String())
    decks = fields.List(fields.List(fields.String()))


class Submission(Strict):
    seat = fields.Integer(strict=True, validate=validate.Range(min=0))
    move = fields.Dict(required=True)
    expected_version = fields.Integer(strict=True, validate=validate.Range(min=1))


class Wait(Schema):
    wait = fields.Float(load_default=0, validate=validate.Range(min=0, max=LONGEST_WAIT_S))


class At(Schema):
    at = fields.Integer(validate=validate.Range(min=1))


class EventsQuery(Schema):
    after = fields.Integer(validate=validate.Range(min=0))
    limit = fields.Integer(load_default=500, validate=validate.Range(min=1, max=5000))
    follow = fields.Boolean(load_default=False)


class ViewsQuery(Schema):
    first = fields.Integer(data_key="from", load_default=1, validate=validate.Range(min=1))
    last = fields.Integer(data_key="to", validate=validate.Range(min=1))
    score = fields.Boolean(load_default=False)


class GamesQuery(Schema):
    game = fields.String(validate=validate.OneOf(sorted(GAMES)))
    player = fields.String()
    status = fields.String(validate=validate.OneOf(["in-progress", "finished"]))
    # The `next` of a previous page: a creation time, opaque to clients.
    cursor = fields.String(
        validate=validate.Regexp(r"^(\d+(\.\d+)?)?$", error="not a cursor given by a previous page")
    )
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    order = fields.String(load_default="oldest", validate=validate.OneOf(["oldest", "newest"]))


class AuditRequest(Strict):
    claimed = fields.Dict(
        keys=fields.String(validate=validate.Regexp(r"^\d+$")),
        values=fields.Integer(strict=True),
        load_default=dict,
    )


class ReplayDocument(Schema):
    class Meta:
        unknown = INCLUDE

    format = fields.String(required=True, validate=validate.Equal("tablelog-replay/1"))
    game = fields.String(required=True, validate=validate.OneOf(sorted(GAMES)))
    entries = fields.List(fields.Dict(), required=True, validate=validate.Length(min=1))
    seed = fields.String(allow_none=True)
    decks = fields.List(fields.List(fields.String()), allow_none=True)
    score = fields.Dict(allow_none=True)


# -- answers ---------------------------------------------------------------------------------


class Seat(Schema):
    seat = fields.Integer()
    name = fields.String()
    token = fields.String()


class Created(Schema):
    id = fields.String()
    game = fields.String()
    players = fields.List(fields.String())
    options = fields.Dict()
    seats = fields.List(fields.Nested(Seat))
    table_token = fields.String()
    seed_commitment = fields.String()
    version = fields.Integer()


class Summary(Schema):
    id = fields.String()
    game = fields.String()
    players = fields.List(fields.String())
    options = fields.Dict()
    status = fields.String(validate=validate.OneOf(["in-progress", "finished"]))
    version = fields.Integer()
    to_act = fields.List(fields.Integer())
    round = fields.Integer()
    seed_commitment = fields.String()
    seed = fields.String(allow_none=True)
    created_at = fields.String()


class GameList(Schema):
    games = fields.List(fields.Nested(Summary))
    next = fields.String(allow_none=True)


class State(Schema):
    version = fields.Integer()
    status = fields.String()
    round = fields.Integer()
    to_act = fields.List(fields.Integer())
    state = fields.Dict()


class LegalMove(Schema):
    seat = fields.Integer()
    move = fields.Dict()


class LegalMoves(Schema):
    version = fields.Integer()
    moves = fields.List(fields.Nested(LegalMove))


class Pending(Schema):
    seq = fields.Integer()
    status = fields.String()


class Verdict(Schema):
    seq = fields.Integer()
    status = fields.String(validate=validate.OneOf(["pending", "accepted", "rejected"]))
    version = fields.Integer(allow_none=True)
    code = fields.String(allow_none=True)
    detail = fields.String(allow_none=True)
    effects = fields.List(fields.Dict(), allow_none=True)


class Entry(Schema):
    """A log entry (CONTRACT.md section 5): these four fields, then its type's own."""

    class Meta:
        unknown = INCLUDE

    seq = fields.Integer()
    type = fields.String()
    at = fields.String()
    hash = fields.String()


class Events(Schema):
    events = fields.List(fields.Nested(Entry))
    next = fields.Integer(allow_none=True)


class Step(Schema):
    at = fields.Integer()
    status = fields.String(validate=validate.OneOf(["in-progress", "finished"]))
    round = fields.Integer()
    to_act = fields.List(fields.Integer())
    state = fields.Dict()
    score = fields.Nested("ScoreBreakdown")


class Views(Schema):
    version = fields.Integer()
    first = fields.Integer(data_key="from")
    last = fields.Integer(data_key="to")
    steps = fields.List(fields.Nested(Step))


class Component(Schema):
    label = fields.String()
    detail = fields.String()
    points = fields.Integer()
    round = fields.Integer()
    events = fields.List(fields.Integer())


class PlayerScore(Schema):
    seat = fields.Integer()
    name = fields.String()
    total = fields.Integer()
    rank = fields.Integer()
    components = fields.List(fields.Nested(Component))


class ScoreBreakdown(Schema):
    final = fields.Boolean()
    rounds = fields.Integer()
    players = fields.List(fields.Nested(PlayerScore))


class Claim(Schema):
    seat = fields.Integer()
    claimed = fields.Integer()
    recomputed = fields.Integer()
    difference = fields.Integer()
    components = fields.List(fields.Nested(Component))


class AuditReport(Schema):
    status = fields.String()
    ok = fields.Boolean()
    hash_chain_ok = fields.Boolean(allow_none=True)
    seed_ok = fields.Boolean(allow_none=True)
    replay_ok = fields.Boolean(allow_none=True)
    mismatches = fields.List(fields.Dict())
    # Entries withheld from the caller (a replay of a running game): the chain is unknown there.
    redacted = fields.List(fields.Integer())
    claims = fields.List(fields.Nested(Claim))
    score = fields.Dict(allow_none=True)
    claimed = fields.Dict()
    number = fields.Integer()
    version = fields.Integer()
    progress = fields.Dict()
    links = fields.Dict()


class Problem(Schema):
    """RFC 9457 problem details; extension members may follow (RFC 9457 section 3.2)."""

    class Meta:
        unknown = INCLUDE

    type = fields.String()
    title = fields.String()
    status = fields.Integer()
    detail = fields.String()
    code = fields.String()
    errors = fields.Dict()
    # A rejected move: the submission, its verdict and the log version it left.
    seq = fields.Integer()
    verdict = fields.String()
    version = fields.Integer()


class Health(Schema):
    status = fields.String()
    redis = fields.String()
    workers = fields.Integer()
    queued = fields.Integer()
