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
    async def drain(p):
        out = await p.stdout.read()
        await p.wait()
        return out.decode()

    try:
        return await asyncio.wait_for(asyncio.gather(*(drain(p) for p in procs)), timeout)
    finally:
        for p in procs:
            if p.returncode is None:
                p.kill()
                await p.wait()
