"""The web pages are served by the app, beside the API but not part of /openapi.json."""

from tests.api import create


def fetched(client, url):
    """Status, headers and text of `url`; a file's answer is closed once read."""
    with client.get(url) as answer:
        return answer.status_code, answer.headers, answer.get_data(as_text=True)


def test_the_pages_and_their_modules_are_served(client):
    game = create(client)
    for url in ("/", f"/games/{game.id}", "/replay"):
        status, headers, text = fetched(client, url)
        assert status == 200 and headers["Content-Type"].startswith("text/html")
        assert headers["Referrer-Policy"] == "no-referrer" and "<!doctype html>" in text
    _, _, viewer = fetched(client, f"/games/{game.id}")
    assert '<script type="module" src="/static/js/viewer.js">' in viewer
    status, headers, _ = fetched(client, "/static/js/viewer.js")
    assert status == 200 and "javascript" in headers["Content-Type"]
    assert "max-age=300" in headers["Cache-Control"]


def test_the_pages_stay_out_of_the_api_description(client):
    paths = client.get("/openapi.json").json["paths"]
    assert all(path.startswith("/v1/") or path == "/healthz" for path in paths)
    api = {"/v1/games/{game_id}/views", "/v1/replays/views", "/v1/games/{game_id}/events"}
    assert api <= set(paths)
