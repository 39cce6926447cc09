"""The persistence layer the web and the workers share: every Redis key and script lives here.

`Store` gathers one object per noun over one client: `games` (creating and listing them, meta,
tokens, secret), `log` (appending and reading entries), `projections` (what readers need
without replaying), `scheduler` (which games wait to be judged and by which drain), `locks`
and `audits`. `store.keys` spells every key; nothing outside this package knows one.
"""

from __future__ import annotations

import redis

from store.audits import Audits
from store.games import Games
from store.locks import Locks
from store.log import Log
from store.projections import Projections
from store.scheduler import Scheduler


class Store:
    def __init__(self, client: redis.Redis):
        self.redis = client
        self.games = Games(client)
        self.log = Log(client)
        self.projections = Projections(client)
        self.scheduler = Scheduler(client)
        self.locks = Locks(client)
        self.audits = Audits(client)
