"""The online service a build carries (``gin3d.built_in``): written by the build, read as the
service in use while the player sets none, ignored when damaged."""

from __future__ import annotations

import json

import pytest

from gin3d.built_in import FORMAT, bake_service, built_in_service, check_service
from gin3d.settings import Settings, service_in_use


def test_a_baked_service_is_read_back(tmp_path):
    path = bake_service(tmp_path / "gin3d", "relay.example.org:47470,10.0.0.2:47470")
    assert json.loads(path.read_text())["format"] == FORMAT
    assert built_in_service(path) == "relay.example.org:47470,10.0.0.2:47470"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not json",
        "[]",
        json.dumps({"format": "other", "online_service": "a:1"}),
        json.dumps({"format": FORMAT, "online_service": "no port"}),
        json.dumps({"format": FORMAT, "online_service": "a:99999"}),
        json.dumps({"format": FORMAT, "online_service": 47470}),
    ],
)
def test_a_damaged_service_file_means_no_built_in_service(tmp_path, text):
    path = tmp_path / "service.json"
    path.write_text(text)
    assert built_in_service(path) == ""
    assert built_in_service(tmp_path / "missing.json") == ""


@pytest.mark.parametrize("bad", ["", "host", "host:", ":47470", "a b:1", "a:0", "a:1,b"])
def test_a_build_refuses_a_service_that_is_not_host_and_port(tmp_path, bad):
    with pytest.raises(ValueError):
        bake_service(tmp_path / "gin3d", bad)
    assert not (tmp_path / "gin3d" / "service.json").exists()
    with pytest.raises(ValueError):
        check_service(bad)


def test_the_players_own_service_wins_over_the_builds(tmp_path):
    """Settings' service when set; else the build's; else none (LAN, direct, by code); a
    checkout carries none."""
    built = built_in_service(bake_service(tmp_path / "gin3d", "127.0.0.1:47470"))
    assert service_in_use(Settings(), built) == "127.0.0.1:47470"
    assert service_in_use(Settings(online_service="127.0.0.1:5000"), built) == "127.0.0.1:5000"
    assert service_in_use(Settings(), "") is None
    assert built_in_service() == "" and service_in_use(Settings()) is None
