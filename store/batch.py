"""Several commands and store scripts sent to Redis in one round trip.

A batch packs its commands, writes them at once on one pooled connection and reads their
answers in order, each parsed as the client would parse it (its response callbacks). redis-py's
own Pipeline does that too, but it asks Redis whether it knows every script before each run
(one more round trip each time) and its command stack, per-command wrappers and bookkeeping
cost the web a measurable share of a move's work besides (docs/benchmarks.md, "Counting
instructions"). A `Batch` sends EVALSHA straight away
and, only when Redis answers that it does not know a script (it restarted, or never ran it),
loads its scripts and sends again the steps that failed so, and only those: a step that ran
must not run twice.

Queuing a step gives its `Answer`, read once the batch has run: the store's `queue_*` methods
hand back answers that read themselves into the store's own types (an `Appended`, a `Judging`,
the claims taken), so that no caller counts positions in a list of replies.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

import hiredis
import redis
from redis.cluster import RedisCluster
from redis.commands.core import Script
from redis.connection import AbstractConnection
from redis.exceptions import NoScriptError, ResponseError

Command = tuple[Any, ...]
T = TypeVar("T")
U = TypeVar("U")


_UNREAD = object()


def _as_sent(answer: Any) -> Any:
    return answer


class Answer(Generic[T]):
    """One queued step's answer, read (`value`) once its batch has run."""

    __slots__ = ("_read", "_value", "raw")

    def __init__(self, read: Callable[[Any], T] = _as_sent):
        self._read = read
        self._value: Any = _UNREAD
        # As Redis answered, parsed as the client parses it; the exception when the step failed.
        self.raw: Any = None

    @property
    def value(self) -> T:
        """The answer read into its type (once), raising the error the step failed with."""
        if self._value is _UNREAD:
            self._value = self._read(checked(self.raw))
        return self._value

    @property
    def error(self) -> Exception | None:
        return self.raw if isinstance(self.raw, Exception) else None


class Batch:
    def __init__(self, client: redis.Redis | RedisCluster):
        self.client = client
        self._commands: list[Command] = []
        self._answers: list[Answer[Any]] = []
        self._scripts: dict[int, Script] = {}

    def add(self, *command: Any, read: Callable[[Any], U] = _as_sent) -> Answer[U]:
        """Queue one command, spelled as `execute_command` takes it; its answer, which `read`
        turns into what the caller wants of it."""
        answer: Answer[U] = Answer(read)
        self._commands.append(command)
        self._answers.append(answer)
        return answer

    def script(self, script: Script, keys: Sequence[str], args: Sequence[Any],
               read: Callable[[Any], U] = _as_sent) -> Answer[U]:
        self._scripts[id(script)] = script
        return self.add("EVALSHA", script.sha, len(keys), *keys, *args, read=read)

    def run(self) -> None:
        """Send every step and give each its answer; a step that failed answers its exception."""
        if not self._commands:
            return
        answers = self._send(self._commands)
        unknown = [i for i, answer in enumerate(answers) if isinstance(answer, NoScriptError)]
        if unknown:
            for script in self._scripts.values():
                script.sha = self.client.script_load(script.script)
            again = [self._commands[i] for i in unknown]
            for i, answer in zip(unknown, self._send(again), strict=True):
                answers[i] = answer
        for step, answer in zip(self._answers, answers, strict=True):
            step.raw = answer

    def _send(self, commands: list[Command]) -> list[Any]:
        if isinstance(self.client, RedisCluster):
            # Its pipelines refuse scripts: on a cluster a batch costs a round trip a step.
            return [self._one(command) for command in commands]
        pool = self.client.connection_pool
        try:
            connection = pool.get_connection()
        except (redis.ConnectionError, redis.TimeoutError) as away:
            raise NothingSent(str(away)) from away
        try:
            # Sent whole again when the connection drops, as the client's retry policy says,
            # as redis-py's pipelines are: an append sent twice is written once (`store.log`'s
            # nonce), and a claim taken twice lapses back among the dirty games.
            return connection.retry.call_with_retry(
                lambda: self._exchange(connection, commands), lambda _: connection.disconnect())
        except BaseException:
            # Answers may be left unread on it: it must not serve another caller.
            connection.disconnect()
            raise
        finally:
            pool.release(connection)

    def _exchange(self, connection: AbstractConnection, commands: list[Command]) -> list[Any]:
        connection.send_packed_command([_packed(commands)])
        return [self._answer(connection, command[0]) for command in commands]

    def _answer(self, connection: AbstractConnection, name: str) -> Any:
        try:
            answer = connection.read_response()
        except ResponseError as refused:  # read whole: the next answer follows it
            return refused
        parse = self.client.response_callbacks.get(name)
        return answer if parse is None else parse(answer)

    def _one(self, command: Command) -> Any:
        try:
            return self.client.execute_command(*command)
        except ResponseError as refused:  # as a batch answers it; Redis going away raises
            return refused


def _packed(commands: list[Command]) -> bytes:
    """The commands in Redis's protocol, packed by hiredis as they are. redis-py's packer first
    looks at every argument (a bytearray or memoryview to copy, a command name holding a space
    to split), which none of the store's commands needs: their arguments are str, bytes and
    numbers."""
    return b"".join(map(hiredis.pack_command, commands))


class NothingSent(redis.ConnectionError):
    """Redis could not be reached: none of a batch's commands was sent."""


def checked(answer: Any) -> Any:
    """A step's answer, raising the error it failed with."""
    if isinstance(answer, Exception):
        raise answer
    return answer
