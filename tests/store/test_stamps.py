"""Entries' times (store.log.now): ISO 8601 in UTC to the millisecond, as datetime gives them."""

from datetime import UTC, datetime

from freezegun import freeze_time

from store.log import now


def test_an_entry_is_stamped_as_datetime_would_stamp_it():
    for moment in ("2026-11-23 10:00:00", "2026-11-23 10:00:00.9995", "2026-12-31 23:59:59.999",
                   "2027-01-01 00:00:00.0004", "2026-11-23 10:00:07.123456"):
        with freeze_time(moment):
            expected = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
            assert now() == expected


def test_stamps_move_on_with_the_clock_across_seconds():
    with freeze_time("2026-11-23 10:00:00.998") as clock:
        first = now()
        clock.tick(0.004)
        assert (first, now()) == ("2026-11-23T10:00:00.998Z", "2026-11-23T10:00:01.002Z")
