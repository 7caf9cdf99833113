"""Real processes on loopback for the network tests: start one, read its status lines, wait
for all to end (bounded; what is left running is killed)."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOOP = "127.0.0.1"
FAST = ["--heartbeat", "0.3", "--dead-after", "2.5", "--retry", "0.2", "--grace", "60"]


async def _spawn(*args: str) -> asyncio.subprocess.Process:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return await asyncio.create_subprocess_exec(
        sys.executable,
        *args,
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )


async def _line(proc, prefix: str) -> str:
    while True:
        line = (await proc.stdout.readline()).decode()
        if not line:
            raise AssertionError(f"process ended before printing {prefix}")
        if line.startswith(prefix):
            return line.split(None, 1)[1].strip()


async def _finish(*procs, timeout=120) -> list[str]:
    """Every process's output once all have ended; one still running after ``timeout``
    seconds fails the test with the end of what each process printed so far."""
    outs = [bytearray() for _ in procs]

    async def drain(p, out: bytearray) -> str:
        while chunk := await p.stdout.read(65536):
            out += chunk
        await p.wait()
        return out.decode()

    try:
        return await asyncio.wait_for(
            asyncio.gather(*(drain(p, out) for p, out in zip(procs, outs))), timeout
        )
    except asyncio.TimeoutError:
        running = [i for i, p in enumerate(procs) if p.returncode is None]
        tails = "\n".join(
            f"--- process {i} ({'running' if p.returncode is None else f'ended {p.returncode}'})"
            f", last of its output:\n{out[-1500:].decode(errors='replace')}"
            for i, (p, out) in enumerate(zip(procs, outs))
        )
        raise AssertionError(
            f"processes {running} still running after {timeout} s\n{tails}"
        ) from None
    finally:
        for p in procs:
            if p.returncode is None:
                p.kill()
                await p.wait()


class FaultyProxy:
    """A TCP proxy whose n-th connection suffers ``faults[n]``; later ones pass cleanly.

    A fault is (kind, after_bytes): ``cut`` closes both sides mid-stream, ``stall`` stops
    forwarding but keeps the sockets open (only heartbeats can notice), ``corrupt`` drops a
    chunk (TLS then fails), ``refuse`` closes the connection at once. Every chunk is also
    delayed a little.
    """

    def __init__(self, target_port: int, faults: list[tuple[str, int]], delay: float) -> None:
        self.target_port = target_port
        self.faults = faults
        self.delay = delay
        self.connections = 0
        self.port = 0
        self.writers: list[asyncio.StreamWriter] = []

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._conn, LOOP, 0)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _conn(self, reader, writer) -> None:
        n = self.connections
        self.connections += 1
        fault = self.faults[n] if n < len(self.faults) else ("none", 0)
        if fault[0] == "refuse":  # as if the network were gone
            writer.close()
            return
        up_reader, up_writer = await asyncio.open_connection(LOOP, self.target_port)
        self.writers += [writer, up_writer]
        moved = [0]
        stalled = asyncio.Event()

        async def pump(src, dst):
            try:
                while data := await src.read(4096):
                    if stalled.is_set():
                        continue
                    await asyncio.sleep(self.delay)
                    kind, after = fault
                    if kind != "none" and moved[0] + len(data) > after:
                        cut_at = max(1, after - moved[0])
                        if kind == "cut":
                            dst.write(data[:cut_at])
                            await dst.drain()
                            break
                        if kind == "stall":
                            stalled.set()
                            continue
                        if kind == "corrupt":
                            fault_done[0] = True
                            data = data[:cut_at] + data[cut_at + 7 :]
                    moved[0] += len(data)
                    dst.write(data)
                    await dst.drain()
            except (OSError, ConnectionError):
                pass
            if not stalled.is_set():
                for w in (writer, up_writer):
                    w.close()

        fault_done = [False]
        await asyncio.gather(pump(reader, up_writer), pump(up_reader, writer))

    def close(self) -> None:
        self.server.close()
        for w in self.writers:
            w.close()
