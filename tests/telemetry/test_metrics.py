"""Every metric the processes export is listed in docs/operations.md, with what a healthy value
looks like, and none is labelled by anything unbounded."""

from __future__ import annotations

from prometheus_client import Counter
from prometheus_client.metrics import MetricWrapperBase

from telemetry import metrics
from tests.conftest import ROOT

# Labels each from a fixed set: never a game id, a token or a player.
_BOUNDED = {"route", "method", "status", "code", "outcome", "ok", "process"}


def _defined() -> list[MetricWrapperBase]:
    return [m for m in vars(metrics).values() if isinstance(m, MetricWrapperBase)]


def _exported_names() -> list[str]:
    counted = [m._name + ("_total" if isinstance(m, Counter) else "") for m in _defined()]
    return [*counted, *metrics.SCRAPED]


def test_every_metric_is_listed_in_the_operations_doc():
    doc = (ROOT / "docs" / "operations.md").read_text()
    assert [name for name in _exported_names() if f"| `{name}` |" not in doc] == []


def test_every_label_takes_its_values_from_a_fixed_set():
    assert {label for m in _defined() for label in m._labelnames} <= _BOUNDED
