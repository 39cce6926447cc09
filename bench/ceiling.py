"""The ceiling the benchmark holds the service against: a Flask app doing one XADD per POST.

It answers the service's move route with what the cheapest possible ingest does: append the
body to a stream and say where it landed. No schema, no token, no verdict: what is left is
gunicorn, Flask and one Redis round trip, so the service's figures divided by these show what
the service itself costs. The benchmark serves it with the Procfile's gunicorn settings.
"""

from __future__ import annotations

import os

import redis
from flask import Flask, Response, request

PREFIX = "bench:ceiling:"


def create_app() -> Flask:
    app = Flask(__name__)
    connection = redis.Redis.from_url(os.environ["REDIS_URL"])

    @app.post("/v1/games/<game_id>/moves")
    def post(game_id: str) -> Response:
        seq = connection.xadd(PREFIX + game_id, {"e": request.get_data()})
        return Response(b'{"seq":"' + seq + b'"}', status=201, mimetype="application/json")

    return app
