"""LAN discovery: advertisement parsing, and real zeroconf inside private network namespaces
(so no packet can leave this machine). The namespace tests need root and ``unshare``/``ip``;
the two-namespace veth test runs only with GIN3D_NETNS_TEST=1."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

zeroconf = pytest.importorskip("zeroconf")

from gin3d.net.discovery import SERVICE, Table, table_from_info  # noqa: E402
from gin3d.net.protocol import PROTOCOL_VERSION  # noqa: E402

SCENARIO = str(Path(__file__).with_name("net_lan_scenario.py"))
FP = "ab" * 32


def _info(**props):
    base = {"name": "Den", "v": str(PROTOCOL_VERSION), "fp": FP, "open": "1"}
    base.update(props)
    return zeroconf.ServiceInfo(
        SERVICE,
        f"Den.{SERVICE}",
        addresses=[bytes([127, 0, 0, 1])],
        port=47470,
        properties={k: v for k, v in base.items() if v is not None},
    )


def test_advertisement_parsing():
    table = table_from_info(_info())
    assert table == Table(f"Den.{SERVICE}", "Den", "127.0.0.1", 47470, PROTOCOL_VERSION, FP, True)
    assert table.compatible
    assert not table_from_info(_info(v="99")).compatible
    assert table_from_info(_info(open="0")).open is False
    for bad in ({"fp": "xyz"}, {"v": "one"}, {"fp": None}):
        assert table_from_info(_info(**bad)) is None
    long = table_from_info(_info(name="  a\tvery   long " + "x" * 80))
    assert long.name.startswith("a very long") and len(long.name) == 40


def _can_unshare() -> bool:
    if os.geteuid() != 0 or not shutil.which("unshare") or not shutil.which("ip"):
        return False
    probe = subprocess.run(["unshare", "-n", "true"], capture_output=True)
    return probe.returncode == 0


def _last_json(text: str) -> dict:
    return json.loads([line for line in text.splitlines() if line.startswith("{")][-1])


@pytest.mark.skipif(not _can_unshare(), reason="needs root and unshare for a private netns")
def test_lan_table_found_and_joined_in_a_private_namespace():
    setup = (
        "ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo && "
    )
    proc = subprocess.run(
        ["unshare", "-n", "sh", "-c", setup + f"exec {sys.executable} {SCENARIO} lan"],
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = _last_json(proc.stdout)
    assert out["guest"]["found"] == "Kitchen table" and out["guest"]["compatible"]
    assert out["host"]["ended"] == out["guest"]["ended"] == "finished"
    assert out["host"]["head"] == out["guest"]["head"]


@pytest.mark.skipif(not _can_unshare(), reason="needs root and unshare for a private netns")
def test_app_lists_lan_tables_live_and_joins_one():
    setup = (
        "ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo && "
    )
    proc = subprocess.run(
        ["unshare", "-n", "sh", "-c", setup + f"exec {sys.executable} {SCENARIO} lan-api"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = _last_json(proc.stdout)
    assert out["lists"][0] == ["Ann's table"]
    assert out["lists"][-1] == []  # the table left the list once taken
    assert out["ended"] == "finished" and out["same"]


@pytest.mark.skipif(
    os.environ.get("GIN3D_NETNS_TEST") != "1" or not _can_unshare(),
    reason="set GIN3D_NETNS_TEST=1 (root) for the two-namespace veth test",
)
def test_two_hosts_on_a_veth_pair_find_each_other():
    tag = secrets.token_hex(3)
    a, b = f"gin3d-a-{tag}", f"gin3d-b-{tag}"
    va, vb = f"g3a{tag}", f"g3b{tag}"

    def sh(*cmd):
        subprocess.run(cmd, check=True, capture_output=True)

    try:
        sh("ip", "netns", "add", a)
        sh("ip", "netns", "add", b)
        sh("ip", "link", "add", va, "type", "veth", "peer", "name", vb)
        sh("ip", "link", "set", va, "netns", a)
        sh("ip", "link", "set", vb, "netns", b)
        for ns, dev, addr in ((a, va, "10.77.0.1/24"), (b, vb, "10.77.0.2/24")):
            sh("ip", "-n", ns, "addr", "add", addr, "dev", dev)
            sh("ip", "-n", ns, "link", "set", dev, "up")
            sh("ip", "-n", ns, "link", "set", "lo", "up")
        hosting = subprocess.Popen(
            ["ip", "netns", "exec", a, sys.executable, SCENARIO, "host", "10.77.0.1"],
            stdout=subprocess.PIPE,
            text=True,
        )
        joining = subprocess.run(
            ["ip", "netns", "exec", b, sys.executable, SCENARIO, "join"],
            capture_output=True,
            text=True,
            timeout=90,
        )
        host_out, _ = hosting.communicate(timeout=60)
        guest = _last_json(joining.stdout)
        hosted = _last_json(host_out)
        assert guest["found"] == "Kitchen table" and guest["address"] == "10.77.0.1"
        assert guest["ended"] == hosted["ended"] == "finished"
        assert guest["head"] == hosted["head"]
    finally:
        for ns in (a, b):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)


@pytest.mark.skipif(not _can_unshare(), reason="needs root and unshare for a private netns")
def test_saved_lan_match_resumes_where_the_host_is_now():
    setup = (
        "ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo && "
    )
    proc = subprocess.run(
        ["unshare", "-n", "sh", "-c", setup + f"exec {sys.executable} {SCENARIO} lan-resume"],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = _last_json(proc.stdout)
    assert out["new_port"] != out["old_port"]  # the address in the guest's save is dead
    assert out["listed"] == [["Ann", False, True]]  # heard as a saved match, not open
    assert "looking for Ann's table on the LAN…" in out["status"]
    assert out["ended"] == ["finished"] and out["same"]
    assert out["hands"] >= 2  # the saved hand and at least one played after the resume
