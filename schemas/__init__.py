"""marshmallow schemas of the HTTP API: request bodies, answers, and each game's moves."""
