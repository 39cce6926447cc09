"""Players across events: their games, events and ratings per title (docs/events.md)."""

from http import HTTPStatus

from schemas import api
from service import event_handlers
from service.web import Blueprint, answer, keyring, store

bp = Blueprint("players", __name__, url_prefix="/v1/players", description=__doc__)


@bp.get("/<handle>")
@bp.response(200, api.PlayerRatings)
@bp.alt_response(404, HTTPStatus.NOT_FOUND.name)
def show(handle: str):
    """A player (by the name they play under at events): their events, games, ratings per
    title and every rating change, each citing its game."""
    return answer(event_handlers.player(store(), keyring(), handle))
