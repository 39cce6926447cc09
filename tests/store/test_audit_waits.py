"""Waiting for an audit is budgeted: past `WAITS` blocked requests a process answers at once."""

import threading
import time

from store import keys
from store.audits import WAITS, AuditStatus


def test_past_the_budget_a_wait_for_an_audit_answers_at_once(store):
    store.redis.hset(keys.game("audit-waits").meta, mapping={"version": 1, "hash": "0" * 64})
    number, new = store.audits.new("audit-waits", 1, {"0": 3})  # never queued: never done
    assert new
    blocked = [threading.Thread(target=store.audits.read, args=("audit-waits", number, 2))
               for _ in range(WAITS)]
    for thread in blocked:
        thread.start()
    time.sleep(0.3)
    started = time.monotonic()
    found = store.audits.read("audit-waits", number, 2)
    assert time.monotonic() - started < 0.5
    assert found["status"] == AuditStatus.QUEUED
    for thread in blocked:
        thread.join(5)
    started = time.monotonic()
    store.audits.read("audit-waits", number, 0.5)  # the budget is back: this one waits
    assert time.monotonic() - started >= 0.5
