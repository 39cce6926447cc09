"""The titles a server plays, as their games declare them (`GET /v1/titles`): the command line
names no title itself, so a game added to the server is offered, checked and said at once."""

from __future__ import annotations

from typing import Any

from cli.client import Client, Failure

Specs = dict[str, dict[str, Any]]


def specs(client: Client) -> Specs:
    """Each title's spec by its name."""
    return {spec["name"]: spec for spec in client.get("/v1/titles")["titles"]}


def known(client: Client, title: str) -> dict[str, Any]:
    """The spec of `title`, or a usage error naming the titles there are."""
    found = specs(client)
    if title not in found:
        raise Failure(f"The server plays no {title!r}; it plays {', '.join(found)}.")
    return found[title]
