"""schemathesis, with every check it has, against /openapi.json and the real app and Redis.

Its engine runs what its command line runs (`schemathesis run --checks all`): the examples,
the coverage phase (each parameter missing, out of bounds, of the wrong type; methods a path
does not take), fuzzing (valid and invalid input), and stateful runs that follow the document's
links from a created game to its operations. Bounded in examples, steps and time, with a seed,
so that it ends within a minute and a failure comes back the same. (Its pytest
plugin does not run under this pytest; the engine is its public Python API.)
"""

import pytest
import schemathesis
from schemathesis import engine
from schemathesis.config import SchemathesisConfig
from schemathesis.engine import Status, events

# What positive_data_acceptance expects of a well-formed request, as schemathesis says it.
_ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "429", "5xx"]
# Where a request that fits the document may still be refused (400, 422) for what JSON Schema
# cannot say: an explicit deck must be a permutation of the title's cards, and a title's
# options are checked by its rules (`bad-options`); an uploaded or imported replay must be a
# game whose entries chain and replay (`malformed-replay`, `replay-not-rebuildable`,
# `replay-not-verified`); a range of views must not end before it starts, and one with scores
# is at most `MOST_SCORED_STEPS` long (`bad-range`, `range-too-long`). Every other operation
# is held to schemathesis's own list.
_SEMANTIC = [
    ("/v1/games", "POST"),
    ("/v1/games/{game_id}/views", "GET"),
    ("/v1/replays/verify", "POST"),
    ("/v1/replays/views", "POST"),
    ("/v1/games/{game_id}/replay", "PUT"),
]

CONFIG = {
    "seed": 27,
    # After one round of every phase (about 10 s here) its engine goes on fuzzing and running
    # stateful scenarios until this budget is spent.
    "max-time": 40,
    "workers": 1,
    "cache": {"enabled": False},
    "checks": {"enabled": True},
    "generation": {"max-examples": 10},
    # How long an answer waits for a verdict or an audit (up to 10 s) is no part of its shape:
    # 0 here, so that no example spends the budget waiting (tests/service cover waits).
    "parameters": {"query.wait": 0},
    "phases": {"stateful": {"max-steps": 20}},
    "operations": [
        {"include-path": path, "include-method": method, "checks": {
            "positive_data_acceptance": {"expected-statuses": [*_ACCEPTED, "400", "422"]}}}
        for path, method in _SEMANTIC
    ],
}


def _failures(app) -> tuple[list[str], set[str]]:
    """What the run found, one line each (phase, operation, check and its title), and the
    phases it ran to their end."""
    schema = schemathesis.openapi.from_wsgi(
        "/openapi.json", app, config=SchemathesisConfig.from_dict(CONFIG))
    found: dict[str, str] = {}
    finished: set[str] = set()
    for event in engine.from_schema(schema).execute():
        if isinstance(event, events.PhaseFinished):
            finished.add(str(event.phase.name))
        if isinstance(event, (events.NonFatalError, events.FatalError)):
            found[repr(event)] = f"error: {getattr(event, 'value', None) or event.exception!r}"
        if not isinstance(event, events.ScenarioFinished) or event.status == Status.SUCCESS:
            continue
        for checks in event.recorder.checks.values():
            for check in checks:
                if check.status == Status.FAILURE and check.failure_info is not None:
                    failure = check.failure_info.failure
                    said = f"{event.phase.value} {event.label} {check.name}: {failure.title}"
                    found.setdefault(said, f"{said}\n{failure.message}\n"
                                           f"{check.failure_info.code_sample[:600]}")
    return list(found.values()), finished


@pytest.fixture
def fuzzed(redis_url, workers):
    """The suite's app, whose followed logs end after a second: a fuzzer follows many."""
    from service import create_app

    return create_app({"TESTING": True, "REDIS_URL": redis_url, "FOLLOW_SECONDS": 1})


def test_schemathesis_finds_nothing_against_the_document(fuzzed):
    found, finished = _failures(fuzzed)
    assert not found, "\n\n".join(found)
    assert {"examples", "coverage", "fuzzing", "stateful"} <= finished, "raise max-time"
