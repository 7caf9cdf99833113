"""A real Redis and real ``gin3d-relay`` node processes on loopback, for the service tests.

Redis runs with no persistence (nothing saved, its working folder a test's tmp folder) on
a free loopback port and is stopped at the end; a node is ``python -m gin3d.net.relay`` of
this tree, killed or restarted on the same port at will.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import select
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from gin3d.net.directory import encode_name
from gin3d.net.relay import claim_verifier
from gin3d.net.transport import make_code, room_claim, room_id

ROOT = Path(__file__).resolve().parents[1]
LOOP = "127.0.0.1"
START_S = 15.0  # a process has this long to say it is up
# short timings, so a dead node is noticed and a guest with a wrong code told quickly
NODE_FLAGS = ["--node-ttl", "1.5", "--miss-wait", "0.2", "--guest-wait", "8"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOP, 0))
        return s.getsockname()[1]


def _resp_array(data: bytes) -> list[str] | None:
    """A whole RESP array of bulk strings read from ``data``; None while it is incomplete."""
    lines = data.split(b"\r\n")
    if len(lines) < 2 or not lines[0].startswith(b"*"):
        return None
    count = int(lines[0][1:])
    items = lines[2 : 2 * count + 1 : 2]
    return [item.decode() for item in items] if len(lines) > 2 * count + 1 else None


class RedisServer:
    """``redis-server`` on a free loopback port, saving nothing, in ``folder``."""

    def __init__(self, folder: Path) -> None:
        exe = shutil.which("redis-server")
        if exe is None:
            pytest.skip("redis-server is not installed (apt-get install redis-server)")
        self.port = free_port()
        self.url = f"redis://{LOOP}:{self.port}/0"
        args = [exe, "--port", str(self.port), "--bind", LOOP, "--save", "", "--appendonly"]
        args += ["no", "--dir", str(folder), "--logfile", str(folder / "redis.log")]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + START_S
        while self.command("PING") != "+PONG":
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.stop()
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)

    def command(self, *words: str) -> str:
        """One command's first answer line ('' when Redis is not up)."""
        try:
            with socket.create_connection((LOOP, self.port), timeout=2) as s:
                s.sendall((" ".join(words) + "\r\n").encode())
                return s.recv(4096).decode().split("\r\n")[0]
        except OSError:
            return ""

    def keys(self, pattern: str = "*") -> list[str]:
        """Every key that matches ``pattern`` (KEYS: fine on a test's small Redis)."""
        with socket.create_connection((LOOP, self.port), timeout=5) as s:
            s.sendall(f"KEYS {pattern}\r\n".encode())
            data = b""
            while (found := _resp_array(data)) is None:
                chunk = s.recv(65536)
                if not chunk:
                    raise ConnectionError("Redis closed the connection mid-answer")
                data += chunk
            return found

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Node:
    """One relay node process; ``port`` stays the same across ``restart``. With ``metrics``
    it serves /healthz and /metrics on a free loopback port (``metrics_port``)."""

    def __init__(
        self,
        folder: Path,
        redis_url: str | None,
        name: str,
        flags: tuple[str, ...] = (),
        metrics: bool = False,
    ) -> None:
        self.folder, self.redis_url, self.name, self.flags = folder, redis_url, name, flags
        self.metrics = metrics
        self.port = self.metrics_port = 0
        self.proc: subprocess.Popen | None = None
        self.start()

    @property
    def address(self) -> tuple[str, int]:
        return (LOOP, self.port)

    def start(self) -> None:
        args = [sys.executable, "-m", "gin3d.net.relay", "--port", str(self.port), *NODE_FLAGS]
        args += self.flags
        if self.metrics:
            args += ["--metrics-port", str(self.metrics_port)]
        if self.redis_url:
            args += ["--redis", self.redis_url]
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        with open(self.folder / f"{self.name}.log", "ab") as log:
            self.proc = subprocess.Popen(
                args, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=log
            )
        line = self._first_line()
        if "listening on" not in line:
            self.kill()
            raise RuntimeError(f"relay node {self.name} did not start: {line!r}")
        self.port = int(line.rsplit(":", 1)[1])
        if self.metrics:  # printed right after (often read with the first line already)
            line = self.proc.stdout.readline().decode()
            if "metrics on" not in line:
                self.kill()
                raise RuntimeError(f"relay node {self.name} serves no metrics: {line!r}")
            self.metrics_port = int(line.strip().rstrip("/").rsplit(":", 1)[1])

    @property
    def log(self) -> str:
        """What the node has logged (its stderr) so far."""
        return (self.folder / f"{self.name}.log").read_text(errors="replace")

    def get(self, path: str) -> tuple[int, str]:
        """``GET path`` on the node's metrics port: (status, body)."""
        with socket.create_connection((LOOP, self.metrics_port), timeout=5) as s:
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: {LOOP}\r\n\r\n".encode())
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        head, _, body = data.decode().partition("\r\n\r\n")
        return int(head.split()[1]), body

    def metric(self, name: str) -> float:
        """The sum of a metric's samples in ``/metrics`` (0 when it has none)."""
        _, body = self.get("/metrics")
        found = [
            float(line.rsplit(" ", 1)[1])
            for line in body.splitlines()
            if line.split("{", 1)[0].split(" ", 1)[0] == name
        ]
        return sum(found)

    def _first_line(self) -> str:
        ready, _, _ = select.select([self.proc.stdout], [], [], START_S)
        return self.proc.stdout.readline().decode() if ready else ""

    async def say(self, line: str, source: str = LOOP):
        """Open a connection from the loopback address ``source`` (all of 127.0.0.0/8 is
        this machine: each one a stranger to the node) and send one request line."""
        reader, writer = await asyncio.open_connection(LOOP, self.port, local_addr=(source, 0))
        writer.write(f"GIN3D-RELAY/2 {line}\n".encode())
        return reader, writer

    async def ask(self, line: str, source: str = LOOP, timeout: float = 10.0) -> list[str]:
        """``say`` a question and read the answer lines until the node closes."""
        reader, writer = await self.say(line, source)
        try:
            data = await asyncio.wait_for(reader.read(), timeout)
        finally:
            writer.close()
        return data.decode().splitlines()

    def kill(self) -> None:
        """SIGKILL: the node dies without a word to Redis or its peers."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def restart(self) -> None:
        self.kill()
        self.start()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.proc is not None and self.proc.stdout is not None:
            self.proc.stdout.close()


def table_request(code: str, verifier: str = "", name: str = "Spam") -> str:
    """A ``table`` request line (classic to 100) for ``code``; with another ``verifier``, a
    table nobody can join with the code it shows. (A scrypt: ~50 ms.)"""
    verifier = verifier or claim_verifier(room_claim(code))
    fingerprint = secrets.token_hex(32)
    return f"table {room_id(code)} {verifier} {fingerprint} classic 100 {encode_name(name)} {code}"


@contextlib.contextmanager
def tables_held(node: tuple[str, int], names: list[str]):
    """Public tables named ``names`` open at ``node`` (joinable with their codes), each from
    its own loopback network (127.80.<i>.1), held open on a thread of their own until the
    block ends."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    async def open_all() -> list[asyncio.StreamWriter]:
        writers = []
        for i, name in enumerate(names):
            line = await asyncio.to_thread(table_request, make_code(), "", name)
            _, writer = await asyncio.open_connection(*node, local_addr=(f"127.80.{i}.1", 0))
            writer.write(f"GIN3D-RELAY/2 {line}\n".encode())
            writers.append(writer)
        return writers

    writers = asyncio.run_coroutine_threadsafe(open_all(), loop).result(60)
    try:
        yield
    finally:
        for writer in writers:
            loop.call_soon_threadsafe(writer.close)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
