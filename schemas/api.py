"""Request and answer schemas of the HTTP API (docs/api.md).

Request schemas load and validate bodies and query strings; answer schemas document the
shapes every client may rely on and feed /openapi.json. Answers are built as plain dicts.
"""

from typing import Any

from marshmallow import EXCLUDE, INCLUDE, RAISE, Schema, ValidationError, fields, validate

from engine.games import GAMES
from schemas.moves import COMPONENTS, LARGEST_INTEGER  # noqa: F401 (read as api.LARGEST_INTEGER)

# Every limit once: the validators enforce them and /openapi.json shows them.
# A request's body, in bytes (413 past it, before it is read); a replay document may be larger.
LARGEST_BODY = 1 << 20
# A replay uploaded for anyone to verify or step through (`/v1/replays/verify`, `/views`): over
# twice the replay of the longest game the options allow, at its most seats
# (`bench/replay_sizes.py` prints each title's). Every byte is loaded and re-judged in the web,
# so the bound on bytes is one on CPU (docs/design.md, docs/benchmarks.md, 2026-12-06).
LARGEST_UPLOAD = 4 << 20
# A replay the operator imports: any game a server holds may move, however many refused moves
# its log holds.
LARGEST_REPLAY = 16 << 20
# By default (service.server, set from the environment) a body has this many seconds from its
# request's head to arrive, and a second more for every BODY_RATE bytes of it received (408
# past that), and one address at most this many connections open to one web process (429).
BODY_SECONDS, BODY_RATE, CONNECTIONS_PER_ADDRESS = 10, 16 << 10, 100
# Follow streams hold at most this share of a web process's connections (503 past it); the
# rest are kept for every other request (service.server, set from the environment).
FOLLOWERS_SHARE = 0.8
# A move's body is a hundred bytes or so, and what it loads to is remembered by the web
# (service.web.read, service.handlers); one larger is loaded afresh, so that what is remembered
# stays small whatever clients send.
REMEMBERED_BODY = 512
MOST_PLAYERS = 8
# The longest a request may wait for an outcome (a verdict, an audit): the API's `wait` is
# capped at it, below the store's read timeout (store.connection.READ_TIMEOUT_S).
LONGEST_WAIT_S = 10
LONGEST_NAME = 64
LONGEST_SEED = 256
# Explicit decks: more cards than any game's deck holds, more decks than any game deals.
LARGEST_DECK = 200
MOST_DECKS = 50
LONGEST_CARD = 32
# A log entry's number: past it the store could not count (Redis's 64-bit integers); also the
# largest integer a JSON client reads exactly.
HIGHEST_SEQ = 2**53 - 1
# What a body may hold (I-JSON, RFC 7493): integers a JSON parser holds exactly
# (`LARGEST_INTEGER`), and arrays and objects nested this deep at most, far past any body or
# replay the API makes (a replay nests some 10 deep). Past either, 400 `invalid-json`, before
# anything is written.
DEEPEST_BODY = 64
# A Last-Event-ID: a seq in at most 15 digits (below HIGHEST_SEQ).
LAST_EVENT_ID = r"[0-9]{1,15}"
EVENTS_PAGE = 500
LARGEST_EVENTS_PAGE = 5000
GAMES_PAGE = 50
STATUSES = ["in-progress", "finished", "abandoned"]  # abandoned: ended by its table
LARGEST_GAMES_PAGE = 200
# Scored steps cost far more than views (service/timeline.py).
MOST_SCORED_STEPS = 200
# A followed log is sent for about this long a connection (the client reconnects).
FOLLOWED_S = 25
# An Ed25519 public key (32 bytes) and signature (64), base64url without padding.
PUBLIC_KEY = r"^[A-Za-z0-9_-]{43}$"
SIGNATURE = r"^[A-Za-z0-9_-]{86}$"


class Strict(Schema):
    class Meta:
        unknown = RAISE


class Bounded(fields.List):
    """A list whose length is checked before its items: an oversized one is refused at once,
    however many items it has or what they are."""

    def __init__(self, item: fields.Field, most: int, least: int = 0, **kwargs: Any):
        super().__init__(item, validate=validate.Length(min=least, max=most), **kwargs)
        self.most = most

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> list[Any]:
        if isinstance(value, list) and len(value) > self.most:
            raise ValidationError(f"Longer than maximum length {self.most}.")
        return super()._deserialize(value, attr, data, **kwargs)


def _public_key(**kwargs: Any) -> fields.String:
    return fields.String(validate=validate.Regexp(PUBLIC_KEY), metadata={
        "description": "an Ed25519 public key: its raw 32 bytes, base64url without padding"},
        **kwargs)


def _card() -> fields.String:
    return fields.String(validate=validate.Length(min=1, max=LONGEST_CARD))


def _decks(**kwargs: Any) -> Bounded:
    return Bounded(Bounded(_card(), LARGEST_DECK), MOST_DECKS, **kwargs)


class CreateGame(Strict):
    game = fields.String(required=True, validate=validate.OneOf(sorted(GAMES)))
    players = Bounded(
        fields.String(validate=validate.Length(min=1, max=LONGEST_NAME)),
        MOST_PLAYERS,
        least=1,
        required=True,
    )
    options = fields.Dict(keys=fields.String(), load_default=dict)
    seed = fields.String(validate=validate.Length(min=1, max=LONGEST_SEED))
    deal = fields.String(validate=validate.OneOf(["seeded", "recorded"]), metadata={
        "description": "seeded (the default: dealt by the service from the seed, or `deck`) or"
                       " recorded (played with real cards: the table names each card as it"
                       " comes into view; no seed, deck or commitment)"})
    deck = Bounded(_card(), LARGEST_DECK)
    decks = _decks()
    public_keys = fields.Dict(
        keys=fields.String(validate=validate.Regexp(r"^[0-9]{1,2}$")), values=_public_key(),
        validate=validate.Length(max=MOST_PLAYERS),
        metadata={"description": "seats' Ed25519 public keys, by seat: their moves are signed"})
    handles = Bounded(fields.String(validate=validate.Length(min=1, max=LONGEST_NAME)),
                      MOST_PLAYERS, metadata={
                          "description": "the players' stable handles, one a seat: the game"
                                         " is rated for them (GET /v1/players/{handle})"})


class Submission(Strict):
    seat = fields.Integer(strict=True, validate=validate.Range(min=0))
    # Checked against its game's move schemas once the game is known (schemas.moves).
    move = fields.Dict(
        required=True,
        metadata={"oneOf": [{"$ref": f"#/components/schemas/{name}"} for name in COMPONENTS]},
    )
    expected_version = fields.Integer(strict=True, validate=validate.Range(min=1))
    signature = fields.String(validate=validate.Regexp(SIGNATURE), metadata={
        "description": "a keyed seat's Ed25519 signature over the canonical JSON of {game,"
                       " seat, expected_version, move}, base64url without padding"})


class SeatKey(Strict):
    public_key = _public_key(required=True)


class Wait(Schema):
    wait = fields.Float(
        load_default=0,
        validate=validate.Range(min=0, max=LONGEST_WAIT_S),
        metadata={"description": f"seconds (at most {LONGEST_WAIT_S}) to wait for the outcome"},
    )


class IdempotencyKey(Schema):
    class Meta:
        unknown = EXCLUDE

    key = fields.String(
        data_key="Idempotency-Key",
        metadata={"description": "retrying with the same key and body answers the first verdict;"
                                 " send one whenever the move may be posted again (after a 503"
                                 " `outcome-unknown`, a timeout, a dropped connection)"},
    )


class At(Schema):
    at = fields.Integer(
        validate=validate.Range(min=1, max=HIGHEST_SEQ),
        metadata={"description": "answer as of right after this log entry"},
    )


class EventsQuery(Schema):
    after = fields.Integer(
        validate=validate.Range(min=0, max=HIGHEST_SEQ),
        metadata={"description": "entries after this seq (default 0, or Last-Event-ID)"},
    )
    limit = fields.Integer(
        load_default=EVENTS_PAGE,
        validate=validate.Range(min=1, max=LARGEST_EVENTS_PAGE),
        metadata={"description": "at most this many (not when following)"},
    )
    follow = fields.Boolean(
        load_default=False,
        metadata={"description": (
            "stream the entries after `after`, then each one as it lands (needs Accept"
            " text/event-stream or application/x-ndjson). A connection lasts at most about"
            f" {FOLLOWED_S} s and ends once the game is finished: reconnect with `after` = the"
            " last seq received, or let EventSource send Last-Event-ID"
        )},
    )


class LastEventId(Schema):
    class Meta:
        unknown = EXCLUDE

    last_event_id = fields.String(
        data_key="Last-Event-ID",
        # Checked by the view (400 `bad-last-event-id`), which names the header.
        metadata={"description": "with text/event-stream and no `after`: resume after this seq",
                  "pattern": f"^{LAST_EVENT_ID}$"},
    )


class ViewsQuery(Schema):
    first = fields.Integer(
        data_key="from",
        load_default=1,
        validate=validate.Range(min=1, max=HIGHEST_SEQ),
        metadata={"description": "first entry of the range"},
    )
    last = fields.Integer(
        data_key="to",
        validate=validate.Range(min=1, max=HIGHEST_SEQ),
        metadata={"description": "last entry of the range (default the log's version)"},
    )
    score = fields.Boolean(
        load_default=False,
        metadata={"description": (
            f"list each step's score breakdown too (ranges of at most {MOST_SCORED_STEPS}"
            " entries)"
        )},
    )


class GamesQuery(Schema):
    game = fields.String(
        validate=validate.OneOf(sorted(GAMES)), metadata={"description": "only this game"}
    )
    player = fields.String(metadata={"description": "only with this player"})
    status = fields.String(
        validate=validate.OneOf(STATUSES),
        metadata={"description": "in-progress, finished or abandoned (ended by its table)"},
    )
    # The creation time and id of the last game a page looked at, opaque to clients.
    cursor = fields.String(
        validate=validate.Regexp(
            r"^(\d+(\.\d+)?(~[A-Za-z0-9_-]{1,64})?)?$",
            error="not a cursor given by a previous page",
        ),
        metadata={"description": "the `next` of a previous page"},
    )
    limit = fields.Integer(
        load_default=GAMES_PAGE,
        validate=validate.Range(min=1, max=LARGEST_GAMES_PAGE),
        metadata={"description": f"page size (at most {LARGEST_GAMES_PAGE})"},
    )
    order = fields.String(
        load_default="oldest",
        validate=validate.OneOf(["oldest", "newest"]),
        metadata={"description": "oldest first, or newest"},
    )


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
    decks = _decks(allow_none=True)
    score = fields.Dict(allow_none=True)
    head = fields.Dict(allow_none=True, metadata={
        "description": "the server's receipt for the last entry (Receipt)"})


# -- answers ---------------------------------------------------------------------------------


class Receipt(Schema):
    """The server's signature over the canonical JSON of the other fields: the log of `game`
    held entry `seq` with this `hash` at time `at`."""

    game = fields.String()
    seq = fields.Integer()
    hash = fields.String()
    at = fields.String()
    kid = fields.String(metadata={"description": "the key that signed it (GET /v1/keys)"})
    sig = fields.String(metadata={"description": "Ed25519, base64url without padding"})


class SeatKeyRegistered(Schema):
    seat = fields.Integer()
    public_key = fields.String()
    receipt = fields.Nested(Receipt)


class PublishedKey(Schema):
    kid = fields.String()
    alg = fields.String(validate=validate.Equal("Ed25519"))
    public_key = fields.String(metadata={"description": "raw 32 bytes, base64url"})
    # When the server began and stopped signing with it (until: null for the current key).
    from_ = fields.String(data_key="from", allow_none=True)
    until = fields.String(allow_none=True)


class Keys(Schema):
    keys = fields.List(fields.Nested(PublishedKey))


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
    seed_commitment = fields.String(allow_none=True, metadata={
        "description": "null for a recorded game, which has no seed"})
    deal = fields.String(metadata={"description": "seeded or recorded"})
    version = fields.Integer()
    receipt = fields.Nested(Receipt)


class Summary(Schema):
    id = fields.String()
    game = fields.String()
    players = fields.List(fields.String())
    options = fields.Dict()
    status = fields.String(validate=validate.OneOf(STATUSES))
    version = fields.Integer()
    to_act = fields.List(fields.Integer())
    round = fields.Integer()
    seed_commitment = fields.String(allow_none=True)
    seed = fields.String(allow_none=True)
    deal = fields.String(metadata={"description": "seeded or recorded"})
    created_at = fields.String()
    # Who the caller is in this game: a seat number, "table" or "spectator".
    viewer = fields.Raw()


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
    receipt = fields.Nested(Receipt)


class Verdict(Schema):
    seq = fields.Integer()
    status = fields.String(validate=validate.OneOf(["pending", "accepted", "rejected"]))
    version = fields.Integer(allow_none=True)
    code = fields.String(allow_none=True)
    detail = fields.String(allow_none=True)
    effects = fields.List(fields.Dict(), allow_none=True)
    # An answer to a move: the server's receipt for its verdict (none when looked up later).
    receipt = fields.Nested(Receipt)


class Entry(Schema):
    """A log entry (docs/api.md, The log): these four fields, then its type's own."""

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
    status = fields.String(validate=validate.OneOf(STATUSES))
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
    # What the score answers add (none in a replay's or an audit's breakdown, which are
    # compared as stored): the rule that scores the component, from the title's spec.
    rule = fields.String()


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


class ClaimedTotal(Schema):
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
    # A replay's: its seats' signatures hold (null: no seat keyed), its head is the server's.
    signatures_ok = fields.Boolean(allow_none=True)
    head_ok = fields.Boolean(allow_none=True)
    mismatches = fields.List(fields.Dict())
    # An import of a game stored here already: the id it is stored under.
    existing = fields.String()
    # Entries withheld from the caller (a replay of a running game): the chain is unknown there.
    redacted = fields.List(fields.Integer())
    claims = fields.List(fields.Nested(ClaimedTotal))
    # A recorded game's: each revoke its entries proved and no takeback undid (`seq` the
    # submission whose verdict reported it, `entry` where the seat did not follow).
    revokes = fields.List(fields.Dict())
    score = fields.Dict(allow_none=True)
    claimed = fields.Dict()
    number = fields.Integer()
    version = fields.Integer()
    progress = fields.Dict()
    links = fields.Dict()


class Imported(Schema):
    """A game imported, or found already imported: its log's version and last hash."""

    id = fields.String()
    game = fields.String()
    version = fields.Integer()
    hash = fields.String()
    imported = fields.Boolean(metadata={"description": "false: it was already here"})
    receipt = fields.Nested(Receipt, metadata={"description": "for the log's last entry"})


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
    receipt = fields.Nested(Receipt)
    # A replay that does not verify: what does not, entry by entry (as in an audit report).
    mismatches = fields.List(fields.Dict())


class Waiting(Schema):
    """Moves waiting for a verdict: one work item each, written by its append and done with its
    verdict (`games`: among the first 100 items of each partition)."""

    submissions = fields.Integer()
    games = fields.Integer()
    oldest_s = fields.Float(allow_none=True, metadata={
        "description": "seconds since the oldest of them was submitted (null: none waits)"})


class Following(Schema):
    """What the answering web process's hub serves (store.hub): a follower or a move waiting
    for its verdict holds no Redis connection, all share one reader."""

    games = fields.Integer(metadata={"description": "games this process's requests wait on"})
    waiting = fields.Integer(metadata={"description": "requests waiting on them"})
    streams = fields.Integer(allow_none=True, metadata={
        "description": "follow streams this process serves (null: not counted, outside gunicorn)"})
    most_streams = fields.Integer(allow_none=True, metadata={
        "description": "the most it serves at once (a share of its connections,"
                       " TABLELOG_FOLLOWERS_SHARE): past it, 503 `followers-full`"})


class Memory(Schema):
    """Redis's memory, from INFO: past `maxmemory` under `noeviction` it refuses writes."""

    used = fields.Integer(metadata={"description": "bytes (`used_memory`)"})
    maxmemory = fields.Integer(metadata={"description": "bytes; 0 for no limit"})
    used_of_max = fields.Float(allow_none=True, metadata={
        "description": "used / maxmemory (null without a limit): writes are refused past 1"})
    policy = fields.String(metadata={"description": "`maxmemory-policy`"})


class Health(Schema):
    """200 with `ok` or `degraded` (no live worker or auditor, moves waiting longer than
    the stall threshold, or Redis full: it refuses writes, so no move is taken, while reads
    are answered); 503 with `stalled` (moves waiting longer than it and no live worker
    to judge them) or `down` (Redis does not answer)."""

    status = fields.String(metadata={"enum": ["ok", "degraded", "stalled", "down"]})
    redis = fields.String(metadata={
        "enum": ["ok", "full", "unreachable"],
        "description": "`full`: it answers but refuses writes (a probe write was refused)"})
    memory = fields.Nested(Memory)
    persistence = fields.String(metadata={
        "enum": ["aof", "rdb", "none", "unknown"],
        "description": "how Redis keeps what it is told across a restart: an append-only file,"
                       " snapshots only (a restart loses what came since the last), or nothing"})
    workers = fields.Integer(metadata={"description": "judging workers with a recent heartbeat"})
    auditors = fields.Integer(metadata={"description": "auditing workers with a recent heartbeat"})
    queued = fields.Integer(metadata={"description": "drain jobs queued"})
    audits_queued = fields.Integer()
    pending = fields.Nested(Waiting)
    following = fields.Nested(Following)


# -- titles: each game's declared spec (engine.spec) -------------------------------------------


class TitleOption(Schema):
    name = fields.String(required=True)
    about = fields.String(required=True)
    default = fields.Raw(allow_none=True, metadata={"description": "when not given"})
    kind = fields.String(required=True, metadata={"description": "int, bool or choice"})
    low = fields.Integer(allow_none=True)
    high = fields.Integer(allow_none=True)
    choices = fields.List(fields.Raw())
    nullable = fields.Boolean(metadata={"description": "null stands for the default"})
    seats = fields.List(fields.Integer(), metadata={
        "description": "the seat counts it applies to (all when empty)"})
    not_for = fields.String(metadata={"description": "why it is refused for other seat counts"})
    defaults = fields.Dict(keys=fields.String(), values=fields.Raw(), metadata={
        "description": "defaults by seat count, where they differ"})


class Title(Schema):
    """A game as it declares itself: what the pages and the command line read to offer it,
    check its options, and say its moves and facts as sentences."""

    name = fields.String(required=True)
    seats = fields.List(fields.Integer(), required=True,
                        metadata={"description": "the fewest and the most players"})
    options = fields.List(fields.Nested(TitleOption), required=True)
    moves = fields.Dict(keys=fields.String(), values=fields.Dict(), required=True, metadata={
        "description": "each move type's fields as posted: kind, required, bounds, choices"})
    says = fields.Dict(keys=fields.String(), values=fields.String(), required=True, metadata={
        "description": "a sentence template per move type (docs/design.md, \"Sentences\")"})
    facts = fields.Dict(keys=fields.String(), values=fields.String(), required=True,
                        metadata={"description": "a sentence template per fact kind"})
    board = fields.Boolean(required=True,
                           metadata={"description": "drawn on a board: GET /v1/boards/{name}"})
    cards = fields.Dict(keys=fields.String(), values=fields.Dict(), required=True, metadata={
        "description": "by card code, what a face shows that its code does not say (a Decktet"
                       " card's rank and suits); empty when codes say it all"})
    lowest_wins = fields.Boolean(required=True,
                                 metadata={"description": "the lowest total ranks first"})
    scoring = fields.Dict(keys=fields.String(), values=fields.String(), required=True, metadata={
        "description": "the rule of each kind of score component, a sentence, by its label or a"
                       " `prefix*` of it (a breakdown's `rule`)"})
    dealt = fields.String(required=True, metadata={
        "description": "what the setup (entry 1) brings a score component that cites it, a"
                       " template of `seat` and `label`; empty when it brings none"})
    recorded = fields.Boolean(required=True, metadata={
        "description": "its games may be recorded at a real table (`\"deal\": \"recorded\"`),"
                       " the table's `setup` entry among `moves`"})


class Titles(Schema):
    titles = fields.List(fields.Nested(Title), required=True)


# -- events (tournaments: docs/events.md) -------------------------------------------------------

MOST_EVENT_PLAYERS = 512
MOST_ROUNDS = 64


class CreateEvent(Strict):
    name = fields.String(required=True, validate=validate.Length(min=1, max=200))
    game = fields.String(required=True, metadata={"description": "a title (`GET /v1/titles`)"})
    players = Bounded(fields.String(validate=validate.Length(min=1, max=LONGEST_NAME)),
                      MOST_EVENT_PLAYERS, least=1, required=True)
    rounds = fields.Integer(strict=True, required=True,
                            validate=validate.Range(min=1, max=MOST_ROUNDS))
    format = fields.String(required=True,
                           validate=validate.OneOf(["swiss", "round-robin", "open"]))
    table_size = fields.Integer(strict=True, required=True, metadata={
        "description": "the seats of a full table, within the title's"})
    points = Bounded(fields.Integer(strict=True, validate=validate.Range(min=0, max=10_000)),
                     MOST_PLAYERS, least=1, required=True, metadata={
                         "description": "points per place of a full table, first place first"})
    options = fields.Dict(keys=fields.String(), load_default=dict)
    seed = fields.String(validate=validate.Length(min=1, max=LONGEST_SEED))
    deal = fields.String(validate=validate.OneOf(["seeded", "recorded"]), metadata={
        "description": "how every table's game is dealt: seeded (the default: from a seed the"
                       " event's draws for it) or recorded (played with real cards, each card"
                       " named at the table as it comes into view)"})


class Withdrawal(Strict):
    player = fields.String(required=True, validate=validate.Length(min=1, max=LONGEST_NAME))


class StandingsQuery(Schema):
    after_round = fields.Integer(validate=validate.Range(min=0, max=MOST_ROUNDS), metadata={
        "description": "the standings as they stood once this round's results were in"})


class _Event(Schema):
    """What an event was created with, as its answers give it."""

    id = fields.String()
    name = fields.String()
    game = fields.String()
    players = fields.List(fields.String())
    rounds = fields.Integer()
    format = fields.String()
    table_size = fields.Integer()
    points = fields.List(fields.Integer())
    options = fields.Dict()
    seed_commitment = fields.String()
    version = fields.Integer()


class EventCreated(_Event):
    organiser_token = fields.String()
    receipt = fields.Nested(Receipt)


class EventTable(Schema):
    table = fields.Integer()
    id = fields.String(metadata={"description": "the game's id"})
    players = fields.List(fields.String(), metadata={"description": "in seat order"})
    seats = fields.List(fields.Dict())
    table_token = fields.String()
    links = fields.Dict()
    seed_commitment = fields.String()


class RoundSeated(Schema):
    round = fields.Integer()
    tables = fields.List(fields.Nested(EventTable))
    byes = fields.List(fields.String())
    version = fields.Integer()
    receipt = fields.Nested(Receipt)


class EventSummary(_Event):
    status = fields.String(metadata={"description": "seating or finished"})
    seated = fields.List(fields.Dict(), metadata={
        "description": "each round seated: `round`, `tables` (`table`, `game`, `players`,"
                       " `status`, `result`) and `byes`"})
    withdrawn = fields.List(fields.Dict())
    seed = fields.String(allow_none=True)
    head = fields.Nested(Receipt)


class PlayerWithdrawn(Schema):
    player = fields.String()
    after_round = fields.Integer()
    version = fields.Integer()
    receipt = fields.Nested(Receipt)


class StandingsRow(Schema):
    rank = fields.Integer()
    player = fields.String()
    points = fields.Integer()
    tie_breaks = fields.List(fields.Dict())
    games = fields.List(fields.Dict())
    withdrawn_after_round = fields.Integer()


class Standings(Schema):
    standings = fields.List(fields.Nested(StandingsRow))
    after_round = fields.Integer()
    version = fields.Integer()


class EventExport(Schema):
    format = fields.String()
    id = fields.String()
    entries = fields.List(fields.Dict())
    head = fields.Nested(Receipt)
    games = fields.Dict(metadata={"description": "every game's replay document, by id"})
    standings = fields.List(fields.Nested(StandingsRow))


class EventVerification(Schema):
    ok = fields.Boolean()
    difference = fields.Dict(allow_none=True, metadata={
        "description": "the first thing found to differ: `what`, where (`game`, `entry`,"
                       " `round`, `player`) and `detail`"})
    games = fields.Dict()
    seating_checked = fields.Boolean()


class EventDocument(Schema):
    """An event's export, uploaded to be verified."""

    class Meta:
        unknown = INCLUDE

    format = fields.String(required=True, validate=validate.Equal("tablelog-event/1"))
    entries = fields.List(fields.Dict(), required=True, validate=validate.Length(min=1))
    games = fields.Dict(load_default=dict)
    head = fields.Dict(allow_none=True)
    standings = fields.List(fields.Dict(), allow_none=True)


class PlayerRatings(Schema):
    handle = fields.String()
    events = fields.List(fields.Dict())
    games = fields.List(fields.Dict())
    ratings = fields.Dict(metadata={
        "description": "by title: `mu`, `sigma`, `ordinal` (mu - 3 sigma, the rating shown)"
                       " and `games`"})
    history = fields.List(fields.Dict(), metadata={
        "description": "each change: `title`, `event`, `round`, `game`, `rank`, `of`, `before`"
                       " and `after` (mu, sigma, ordinal), `seq`, `hash`, `head`, `ended_at`"})


class EventLogQuery(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=HIGHEST_SEQ),
                           metadata={"description": "the entries after this seq"})
    follow = fields.Boolean(load_default=False, metadata={
        "description": "follow the log as it is written (NDJSON or server-sent events)"})


class EventLog(Schema):
    entries = fields.List(fields.Dict())
    next = fields.Integer(metadata={"description": "the `after` of the entries still to come"})


class EventImported(Schema):
    id = fields.String()
    version = fields.Integer()
    hash = fields.String()
    games = fields.Integer()
    imported = fields.Boolean()
    receipt = fields.Nested(Receipt, metadata={"description": "for the event log's last entry"})
