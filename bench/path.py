"""One move's path through the code, followed call by call: the modules it enters, and how often
it goes back into one it had left (issue #40's "one way through").

    .venv/bin/python -m bench.path [--game coloretto --players 4] [--show]

It starts the benchmark's stack (its own redis-server), prepares a game whose moves are known
(`bench.plays`), and posts its first moves in process (Flask's test client, as
`bench.instructions`), so that the web process knows the game as a busy one does. Then, under
`sys.setprofile`:
- **the web side**: one more move posted with `wait=5`, as `bench.run` posts them, judged by a
  worker of the Procfile's in a process of its own: everything the request runs, the move
  lane's WSGI middleware and the wait for the verdict included, but not gunicorn's server
  (`service.server`), which the test client does not go through;
- **the worker's side**, on a stack of its own with no worker: a move posted with `wait=0`,
  judged by one turn of a drain run in process (`workers.drain.Drain.turn`), one that judged
  the game's earlier moves as a running worker's does: from its read of the work to its
  commit and settling.

A module here is one of the project's own (`engine`, `service`, `store`, `workers`, `schemas`,
`telemetry`, `cli`); the module a step is in is the innermost of the project's frames on the
stack (a library called from it, Flask or redis-py, counts as its caller). A hop is a change of
that module; a hop back goes into a module the path had already left. `--show` prints the whole
sequence. Deterministic for a given tree: it counts calls, not time.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from dataclasses import dataclass

from bench import plays, stack
from service.limits import out_of_reach
from store import Store

_OURS = frozenset({"engine", "service", "store", "workers", "schemas", "telemetry", "cli"})
_WARM_MOVES = 5  # posted before the traced one, so that the web process knows the game


@dataclass(frozen=True)
class Path:
    """The sequence of modules a traced call went through, consecutive repeats folded."""

    steps: tuple[str, ...]
    calls: tuple[str, ...] = ()  # the modules called into from another, in order

    @property
    def entries(self) -> Counter[str]:
        """How often each module was called into from another (a return is not an entry)."""
        return Counter(self.calls)

    @property
    def entered_again(self) -> int:
        """Calls into a module the path had been called into before."""
        return sum(count - 1 for count in self.entries.values())

    @property
    def modules(self) -> Counter[str]:
        return Counter(self.steps)

    @property
    def hops(self) -> int:
        return max(len(self.steps) - 1, 0)

    @property
    def hops_back(self) -> int:
        """Hops into a module the path had been in before."""
        return sum(count - 1 for count in self.modules.values())

    def report(self, side: str) -> str:
        entered = ", ".join(f"{name} {count}" for name, count in self.modules.most_common())
        called = ", ".join(f"{name} {count}" for name, count in self.entries.most_common())
        return (f"{side}: {len(self.modules)} modules, {self.hops} hops, {self.hops_back} of them "
                f"back into a module it had left\n  in it (times): {entered}\n"
                f"  {len(self.calls)} calls into a module from another, {self.entered_again} of "
                f"them into one called before\n  called into (times): {called}")


def traced(call) -> Path:
    """The project's modules `call()` runs through, in order."""
    stack_: list[str | None] = []
    steps: list[str] = []
    calls: list[str] = []

    def profile(frame, event, _arg):
        if event == "call":
            name = frame.f_globals.get("__name__", "")
            ours = name if name.split(".", 1)[0] in _OURS else None
            caller = stack_[-1] if stack_ else None
            if ours is not None and caller is not None and ours != caller:
                calls.append(ours)
            stack_.append(ours or caller)
        elif event == "return" and stack_:
            stack_.pop()
        else:
            return
        now = stack_[-1] if stack_ else None
        if now is not None and (not steps or steps[-1] != now):
            steps.append(now)

    sys.setprofile(profile)
    try:
        call()
    finally:
        sys.setprofile(None)
    return Path(tuple(steps), tuple(calls))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="coloretto")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--show", action="store_true", help="print every step of both paths")
    args = parser.parse_args()
    web, worker = _web_side(args.game, args.players), _worker_side(args.game, args.players)
    print(f"one {args.game} move of {args.players} players:")
    print(web.report("the web side (posted with wait=5, a worker judging it)"))
    print(worker.report("the worker's side (a turn of a running drain judging it)"))
    if args.show:
        print(json.dumps({"web": web.steps, "worker": worker.steps}, indent=1))


def _web_side(game: str, players: int) -> Path:
    """A move posted with `wait=5`, as the benchmark posts them, a worker of the Procfile's
    judging it in a process of its own."""
    with stack.running(1, None, None) as s:
        track, post = _poster(s, game, players)
        for body in track.bodies[:_WARM_MOVES]:
            post(body, 5)
        return traced(lambda: post(track.bodies[_WARM_MOVES], 5))


def _worker_side(game: str, players: int) -> Path:
    """A move posted with `wait=0` to a stack with no worker, then judged by a turn of a drain
    run in this process, as a running worker's drain judges moves: one that judged the game's
    earlier moves, its share of the partitions dealt and their consumer group made."""
    from workers.drain import Drain

    with stack.running(0, None, None) as s:
        track, post = _poster(s, game, players)
        drain = Drain(Store.connect(s.redis_url), linger_s=0)
        assert drain._deal()
        drain.store.scheduler.ensure_groups()
        for body in track.bodies[:_WARM_MOVES]:
            post(body, 0)
            drain.turn()
        post(track.bodies[_WARM_MOVES], 0)
        return traced(drain.turn)


def _poster(s: stack.Stack, game: str, players: int):
    """A game prepared on the stack, and a function posting one of its moves in process."""
    track = plays.prepare(s.service, game, players, 1, "path")[0]
    os.environ.update(REDIS_URL=s.redis_url, **out_of_reach())
    from service import create_app  # after the environment names the stack's Redis

    client = create_app().test_client()
    headers = {"Authorization": f"Bearer {track.token}"}

    def post(body: bytes, wait: float) -> None:
        answer = client.post(track.path(wait), data=body, headers=headers,
                             content_type="application/json")
        if answer.status_code not in (201, 202):
            raise SystemExit(f"a move answered {answer.status_code}: {answer.data[:300]!r}")

    return track, post


if __name__ == "__main__":
    main()
