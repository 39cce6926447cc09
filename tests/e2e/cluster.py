"""A local Redis Cluster for the tests: three masters with one replica each, six real
`redis-server` processes on free ports, joined by `redis-cli --cluster create`.

Nodes time out after `NODE_TIMEOUT_MS`, so a master killed by a test is replaced by its replica
within a few seconds; the cluster keeps serving the slots of the other masters meanwhile
(`cluster-require-full-coverage no`), as a deployment should.
"""

from __future__ import annotations

import random
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import redis
from redis.cluster import RedisCluster

from tests.conftest import start_redis

NODE_TIMEOUT_MS = 1500
_NODES = 6


def _bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _free_ports(count: int) -> list[int]:
    """Ports free with their cluster bus port (port + 10000), below the ephemeral range."""
    ports: list[int] = []
    for _ in range(1000):
        port = random.randrange(20000, 22700)
        if port not in ports and _bindable(port) and _bindable(port + 10000):
            ports.append(port)
            if len(ports) == count:
                return ports
    raise RuntimeError("no free ports for a local cluster")


class LocalCluster:
    def __init__(self, ports: list[int], procs: dict[int, subprocess.Popen]):
        self.ports, self.procs = ports, procs
        self.url = f"redis://127.0.0.1:{ports[0]}"
        self.client = RedisCluster.from_url(self.url)

    def master_of(self, key: str) -> int:
        """The port of the master holding `key`, as the cluster says now."""
        self.client.nodes_manager.initialize()
        return self.client.get_node_from_key(key).port

    def masters(self) -> set[int]:
        self.client.nodes_manager.initialize()
        return {node.port for node in self.client.get_primaries()}

    def kill(self, port: int) -> None:
        self.procs[port].kill()
        self.procs[port].wait(10)


@contextmanager
def local_cluster(workdir: Path) -> Iterator[LocalCluster]:
    ports = _free_ports(_NODES)
    procs = {}
    try:
        for port in ports:
            folder = workdir / str(port)
            folder.mkdir()
            procs[port] = start_redis(
                port, "--save", "", "--appendonly", "no", "--dir", str(folder),
                "--cluster-enabled", "yes", "--cluster-node-timeout", str(NODE_TIMEOUT_MS),
                "--cluster-require-full-coverage", "no", "--cluster-replica-validity-factor", "0",
            )
        subprocess.run(
            ["redis-cli", "--cluster", "create", *(f"127.0.0.1:{p}" for p in ports),
             "--cluster-replicas", "1", "--cluster-yes"],
            check=True, stdout=subprocess.DEVNULL, timeout=60,
        )
        _wait_replicated(ports)
        cluster = LocalCluster(ports, procs)
        yield cluster
        cluster.client.close()
    finally:
        for proc in procs.values():
            proc.kill()
        for proc in procs.values():
            proc.wait(10)


def _wait_replicated(ports: list[int]) -> None:
    """Until the cluster is ok on every node and every replica's link to its master is up."""
    for _ in range(600):
        if all(_ready(port) for port in ports):
            return
        time.sleep(0.05)
    raise RuntimeError("the local cluster did not come up in 30 s")


def _ready(port: int) -> bool:
    node = redis.Redis(port=port, decode_responses=True)
    try:
        if node.cluster("info")["cluster_state"] != "ok":
            return False
        replication = node.info("replication")
        if replication["role"] == "master":
            return replication["connected_slaves"] >= 1
        return replication["master_link_status"] == "up"
    finally:
        node.close()
