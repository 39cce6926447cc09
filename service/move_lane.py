"""The move lane: a move to a game this web process knows, answered without Flask's dispatch.

Such a move needs nothing Flask's dispatch does for it: its game and the caller's role are
remembered (`service.auth.RememberedGames`), its rate limits' counts go with its append, and
its route is its path. Yet pushing a request context, matching the URL, running the hooks, the
view's wrappers and finalizing the response cost the web as much CPU as the rest of the move
together (docs/benchmarks.md, "Where a verdict's time goes", the move lane). So the lane takes
such a request straight from the WSGI server and answers it with the route's own function,
`service.moves.answered`, from the same bytes: the answer is the same, to the byte, as the
route's.

Whatever the lane cannot take as it is goes to Flask as it came (the body put back), and is
answered as it always was: another route or method; a body not sent with exactly
`Content-Type: application/json` and a Content-Length within the route's limit, or shorter than
it said; a game or a token this process does not know. A refusal once the move is in hand
(input that does not load, a malformed move, a version conflict, a 429 from the append, a store
away) or while its body is read (a 408 when it does not arrive in time, `service.server`) is
answered by the app's own error handlers, in a request context pushed for it alone.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any

from flask import Flask

from service import moves
from service.auth import CallersGame
from service.limits import asked_of
from service.problems import Problem
from service.traced import note
from service.web import environ_key, largest_body

_GAMES, _MOVES = "/v1/games/", "/moves"
_ENDPOINT = "moves.submit"
_RULE = "/v1/games/<game_id>/moves"  # the route's URL rule, as its metrics name it
_JSON = "application/json"
_KEY = environ_key("Authorization")


class MoveLane:
    """WSGI middleware in front of the Flask app's own `wsgi_app`."""

    def __init__(self, app: Flask):
        self.app, self.flask, self.extensions = app, app.wsgi_app, app.extensions
        self.largest = largest_body(app.view_functions[_ENDPOINT])

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        game = self._remembered_game(environ)
        if game is None:
            return self.flask(environ, start_response)
        note(route=_RULE)
        try:
            raw = self._body(environ)
        except Problem as late:
            return self._refusal(environ, game, late)(environ, start_response)
        if raw is None:
            return self.flask(environ, start_response)
        try:
            answer = moves.answered(self.extensions["store"], self.extensions["remembered_games"],
                                    self.extensions["keyring"], game, raw,
                                    environ.get("QUERY_STRING", "").encode("latin-1"),
                                    lambda name: environ.get(environ_key(name)))
        except Exception as refused:  # noqa: BLE001 (each is answered as the route would)
            answer = self._refusal(environ, game, refused)
        return answer(environ, start_response)

    def _remembered_game(self, environ: dict[str, Any]) -> CallersGame | None:
        """The game a move is posted to, as this process remembers its caller seeing it; None
        unless the request is one the lane takes."""
        path = environ.get("PATH_INFO", "")
        if (environ["REQUEST_METHOD"] != "POST" or not path.startswith(_GAMES)
                or not path.endswith(_MOVES)):
            return None
        game_id = path[len(_GAMES):-len(_MOVES)]
        token = environ.get(_KEY)
        if not game_id or "/" in game_id or token is None or not self._sent_whole(environ):
            return None
        asked = asked_of(self.app, token, environ.get("REMOTE_ADDR"), _ENDPOINT, game_id)
        return self.extensions["remembered_games"].recall(game_id, token, asked)

    def _sent_whole(self, environ: dict[str, Any]) -> bool:
        """Whether the body is JSON of a length given, and within the route's limit."""
        length = environ.get("CONTENT_LENGTH", "")
        return (environ.get("CONTENT_TYPE") == _JSON and length.isdigit()
                and int(length) <= self.largest and "HTTP_TRANSFER_ENCODING" not in environ)

    @staticmethod
    def _body(environ: dict[str, Any]) -> bytes | None:
        """The body, read and put back for Flask; None when fewer bytes came than were said."""
        length = int(environ["CONTENT_LENGTH"])
        raw = environ["wsgi.input"].read(length)
        environ["wsgi.input"] = io.BytesIO(raw)
        return raw if len(raw) == length else None

    def _refusal(self, environ: dict[str, Any], game: CallersGame, refused: Exception) -> Any:
        """`refused` answered as the route answers it: a 429 first when the move's counts, not
        taken yet, are past their rate, or whatever taking them raised instead (as
        `web.about_played_game` does)."""
        try:
            if game.owed is not None:
                game.owed.settle()
        except Exception as instead:  # noqa: BLE001 (answered in its stead, as by the route)
            refused = instead
        with self.app.request_context(environ):
            handled = self.app.handle_user_exception(refused)
            return self.app.finalize_request(handled, from_error_handler=True)

