"""Audits are batch work: the auditing worker gets a core only when judging and the web leave
one idle, so that a flood of audits does not slow verdicts down."""

import os
import time

from tests.conftest import start_workers, stop


def test_the_auditor_runs_only_when_the_cpu_is_otherwise_idle(redis_url):
    auditors = start_workers(redis_url, 1, "audits")
    judges = start_workers(redis_url, 1)
    try:
        # The suite's own auditor may have answered for this one: wait for this one's start.
        deadline = time.monotonic() + 20
        while os.sched_getscheduler(auditors[0].pid) != os.SCHED_IDLE:
            assert time.monotonic() < deadline, "the auditor never left the normal class"
            time.sleep(0.05)
        assert os.sched_getscheduler(judges[0].pid) == os.SCHED_OTHER
        assert os.getpriority(os.PRIO_PROCESS, judges[0].pid) == 0
    finally:
        stop(auditors + judges)
