"""The network's fixed numbers live in gin3d.net.constants alone, which loads nothing heavy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gin3d.net.constants import DEFAULT_PORT, EXAMPLE_ADDRESS, RELAY_PORT

ROOT = Path(__file__).resolve().parent.parent


def test_the_constants_load_neither_asyncio_nor_the_network_stack():
    code = (
        "import sys, gin3d.net; gin3d.net.CHEATED; "
        "print(sorted(m for m in ('asyncio', 'ssl', 'cryptography', 'gin3d.net.session') "
        "if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"


def test_the_package_names_still_load_on_use():
    import gin3d.net as net
    from gin3d.net import constants, session
    from gin3d.scene.control import nettable

    assert net.Timing is session.Timing
    for name in ("WAITING", "CONNECTED", "GONE", "CHEATED", "SAVED_BYE", "DECLINED"):
        assert getattr(session, name) is getattr(constants, name)
    assert nettable.SAVED_BYE is constants.SAVED_BYE and nettable.GONE is constants.GONE
    with pytest.raises(AttributeError):
        net.NoSuchName  # noqa: B018


def test_every_default_port_is_the_one_constant():
    from gin3d.net.relay import Relay
    from gin3d.net.transport import parse_address
    from gin3d.scene.control.net_hub import NetConfig

    assert (DEFAULT_PORT, RELAY_PORT) == (47470, 47471)
    assert Relay().port == RELAY_PORT
    with pytest.raises(ValueError, match=EXAMPLE_ADDRESS):
        parse_address("  ", DEFAULT_PORT)
    assert parse_address("lan-box", DEFAULT_PORT) == ("lan-box", DEFAULT_PORT)
    assert NetConfig().port == DEFAULT_PORT
