"""Several commands and store scripts sent to Redis in one round trip.

redis-py's own pipelines ask Redis whether it knows every script before each run (one more
round trip each time); a `Batch` sends EVALSHA straight away and, only when Redis answers that
it does not know a script (it restarted, or never ran it), loads its scripts and sends again
the steps that failed so, and only those: a step that ran must not run twice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import redis
from redis.client import Pipeline
from redis.cluster import RedisCluster
from redis.commands.core import Script
from redis.exceptions import NoScriptError, ResponseError


class Batch:
    def __init__(self, client: redis.Redis | RedisCluster):
        self.client = client
        self._steps: list[Callable[[Pipeline], Any]] = []
        self._scripts: dict[int, Script] = {}

    def add(self, step: Callable[[Pipeline], Any]) -> int:
        """Queue one command (`step` calls it on the pipeline); the index of its answer."""
        self._steps.append(step)
        return len(self._steps) - 1

    def script(self, script: Script, keys: Sequence[str], args: Sequence[Any]) -> int:
        self._scripts[id(script)] = script
        return self.add(lambda pipe: pipe.evalsha(script.sha, len(keys), *keys, *args))

    def run(self) -> list[Any]:
        """Every step's answer, in order; a step that failed answers its exception."""
        if not self._steps:
            return []
        answers = self._send(self._steps)
        unknown = [i for i, answer in enumerate(answers) if isinstance(answer, NoScriptError)]
        if unknown:
            for script in self._scripts.values():
                script.sha = self.client.script_load(script.script)
            for i, answer in zip(unknown, self._send([self._steps[i] for i in unknown]),
                                 strict=True):
                answers[i] = answer
        return answers

    def _send(self, steps: list[Callable[[Pipeline], Any]]) -> list[Any]:
        if isinstance(self.client, RedisCluster):
            # Its pipelines refuse scripts: on a cluster a batch costs a round trip a step.
            return [self._one(step) for step in steps]
        pipe = self.client.pipeline(transaction=False)
        try:
            # Taken here, where the pipeline would take it, to tell a Redis that could not be
            # reached from one that went away after the commands were sent.
            pipe.connection = pipe.connection_pool.get_connection()
        except (redis.ConnectionError, redis.TimeoutError) as away:
            raise NothingSent(str(away)) from away
        for step in steps:
            step(pipe)
        return pipe.execute(raise_on_error=False)


    def _one(self, step: Callable[[Any], Any]) -> Any:
        try:
            return step(self.client)
        except ResponseError as refused:  # as a pipeline answers it; Redis going away raises
            return refused


class NothingSent(redis.ConnectionError):
    """Redis could not be reached: none of a batch's commands was sent."""


def checked(answer: Any) -> Any:
    """A step's answer, raising the error it failed with."""
    if isinstance(answer, Exception):
        raise answer
    return answer
