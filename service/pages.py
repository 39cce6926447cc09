"""The web pages: static HTML shells whose ES modules draw everything from the public API.

No build step and nothing from npm: `static/` holds the modules and the stylesheet as served,
and each title's table is drawn by the `table.js` of its game package (`/tables/{title}.js`),
which the viewer imports once it knows the game's title. The pages are not part of the API, so
they stay out of /openapi.json.
"""

from pathlib import Path

from flask import Blueprint, abort, send_from_directory

from engine.games import FOLDERS
from service.headers import PAGE

STATIC = Path(__file__).parent / "static"

# The modules and the stylesheet are cached a few minutes (a viewer opened again loads from
# the browser's cache); the pages themselves always come fresh.
STATIC_MAX_AGE_S = 300


class Pages(Blueprint):
    def get_send_file_max_age(self, filename: str | None) -> int:
        return STATIC_MAX_AGE_S


bp = Pages("pages", __name__, static_folder=STATIC, static_url_path="/static")


def _page(name: str):
    answer = send_from_directory(STATIC, name, max_age=0)
    answer.headers.update(PAGE)
    return answer


@bp.get("/")
def home():
    return _page("home.html")


@bp.get("/games/<game_id>")
def viewer(game_id: str):
    return _page("viewer.html")


@bp.get("/events/<event_id>")
def event(event_id: str):
    """An event: its rounds, tables and standings; the organiser's view with its token."""
    return _page("event.html")


@bp.get("/replay")
def replay_file():
    return _page("viewer.html")


@bp.get("/tables/<title>.js")
def table(title: str):
    """The module that draws `title`'s table, from its game package."""
    if title not in FOLDERS:
        abort(404)
    return send_from_directory(FOLDERS[title], "table.js", max_age=STATIC_MAX_AGE_S)
