"""``deploy/run-service.sh``, the service without Docker: one command starts a Redis and two
nodes sharing it on loopback; both report healthy with Redis reachable, a table opened at one
is listed at the other, and a SIGTERM to the script stops every process it started."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from service_harness import LOOP, ROOT, free_port, tables_held

from gin3d.net.directory import encode_name

pytestmark = pytest.mark.skipif(
    shutil.which("redis-server") is None, reason="redis-server is not installed"
)


def free_pair() -> int:
    """A port whose next one is free too (the script numbers its nodes' ports up)."""
    for _ in range(50):
        port = free_port()
        with socket.socket() as s:
            try:
                s.bind((LOOP, port + 1))
            except OSError:
                continue
        return port
    raise RuntimeError("no two free ports in a row")


def healthy(port: int) -> dict | None:
    try:
        with urllib.request.urlopen(f"http://{LOOP}:{port}/healthz", timeout=2) as answer:
            return json.loads(answer.read())
    except (OSError, ValueError):
        return None


def listed(port: int) -> list[str]:
    with socket.create_connection((LOOP, port), timeout=5) as s:
        s.sendall(b"GIN3D-RELAY/2 list all 0 10\n")
        data = b""
        while not data.rstrip().split(b"\n")[-1].startswith((b"END", b"REFUSED")):
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    return data.decode().splitlines()


def test_one_command_starts_redis_and_two_nodes_and_stops_them_all(tmp_path):
    first, metrics = free_pair(), free_pair()
    env = dict(
        os.environ,
        REDIS_PORT=str(free_port()),
        METRICS_FIRST=str(metrics),
        RELAY=f"{sys.executable} -m gin3d.net.relay",
        PYTHONPATH=str(ROOT),
    )
    script = subprocess.Popen(
        ["bash", str(ROOT / "deploy" / "run-service.sh"), "2", str(first)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=(tmp_path / "service.log").open("w"),
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while not all(
            (h := healthy(metrics + i)) and h.get("redis") == "reachable" for i in (0, 1)
        ):
            assert script.poll() is None, (tmp_path / "service.log").read_text()[-2000:]
            assert time.monotonic() < deadline, "the nodes did not come up healthy"
            time.sleep(0.1)
        with tables_held((LOOP, first), ["Ann's table"]):
            deadline = time.monotonic() + 10
            name = encode_name("Ann's table")  # as the wire carries it
            while not any(name in line.split() for line in listed(first + 1)):
                assert time.monotonic() < deadline, "the other node does not list the table"
                time.sleep(0.1)
        script.send_signal(signal.SIGTERM)
        script.wait(20)
        deadline = time.monotonic() + 10
        while any(healthy(metrics + i) for i in (0, 1)):
            assert time.monotonic() < deadline, "a node outlived the script"
            time.sleep(0.1)
    finally:
        if script.poll() is None:
            os.killpg(script.pid, signal.SIGKILL)
            script.wait(10)
