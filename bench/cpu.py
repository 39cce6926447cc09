"""The CPU time the service's processes spend, read from /proc: where a verdict's cost goes;
and the memory they hold.

A process counts with its descendants (gunicorn's workers under its master), so each of the
stack's roles is one figure: the web, the judging workers, Redis.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

_TICKS = os.sysconf("SC_CLK_TCK")


def seconds(roles: Mapping[str, Sequence[int]]) -> dict[str, float]:
    """Each role's CPU seconds so far: its processes' and their descendants', user and system."""
    parents, spent = _processes()
    return {role: sum(spent.get(p, 0.0) for p in _with_descendants(pids, parents))
            for role, pids in roles.items()}


def resident(roles: Mapping[str, Sequence[int]]) -> dict[str, int]:
    """Each role's resident memory in bytes: its processes' and their descendants'."""
    parents, _ = _processes()
    held = {}
    for role, pids in roles.items():
        held[role] = 0
        for pid in _with_descendants(pids, parents):
            try:
                status = Path(f"/proc/{pid}/status").read_text()
            except OSError:  # it ended meanwhile
                continue
            kilobytes = next((line.split()[1] for line in status.splitlines()
                              if line.startswith("VmRSS:")), "0")
            held[role] += int(kilobytes) * 1024
    return held


def _processes() -> tuple[dict[int, int], dict[int, float]]:
    parents, spent = {}, {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            raw = stat.read_text()
        except OSError:  # it ended meanwhile
            continue
        # The command, in parentheses, may hold spaces: the fields start after its last ")".
        fields = raw[raw.rindex(")") + 2:].split()
        pid = int(stat.parent.name)
        parents[pid] = int(fields[1])
        spent[pid] = (int(fields[11]) + int(fields[12])) / _TICKS
    return parents, spent


def _with_descendants(pids: Sequence[int], parents: Mapping[int, int]) -> set[int]:
    found = set(pids)
    grew = True
    while grew:
        more = {child for child, parent in parents.items() if parent in found} - found
        found |= more
        grew = bool(more)
    return found
