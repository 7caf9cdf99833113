"""The names players go by at a network table of three or four: each sends its own with its
key (signed, so the host passes it on unchanged), every player shows them, and a name that
is too long, carries control or direction-changing characters, or copies another's is
never shown as sent."""

from __future__ import annotations

import asyncio
import json

import pytest
from net_processes import _finish
from test_net_table import CLI, _open_table

from gin3d.net.protocol import ProtocolError, validate
from gin3d.net.table import TablePeer
from gin3d.net.tablesig import TableKeys
from gin3d.players import GreedyPlayer
from gin3d.scene.control.nettablegroup import named, table_names


def _key(p: int, name: str) -> tuple[TableKeys, dict]:
    keys = TableKeys()
    return keys, keys.key_message(p, name)


def test_a_name_travels_signed_with_the_key():
    keys, msg = _key(1, "Bob")
    assert msg["name"] == "Bob"
    other = TableKeys()
    assert other.holds(msg, 1)
    assert not other.holds({**msg, "name": "Mallory"}, 1)  # a host that renames: caught
    assert "name" not in _key(1, "")[1]  # no name: none sent (as before)


def test_a_name_too_long_is_refused_by_the_schema():
    _, msg = _key(2, "x" * 40)
    validate({**msg, "name": "x" * 40})
    with pytest.raises(ProtocolError):
        validate({**msg, "name": "x" * 41})


def test_a_name_is_shown_cleaned():
    peer = TablePeer(GreedyPlayer())
    peer.index, peer.players = 0, 3
    _, msg = _key(1, "Bob\u202e\x07   the\tgreat")
    asyncio.run(peer._take(msg))
    assert peer.names[1] == "Bob the great"
    _, blank = _key(2, "   ")
    asyncio.run(peer._take(blank))
    assert 2 not in peer.names


def test_the_table_shows_each_players_name_or_its_number():
    assert table_names(3, 0, "You", ["", "Bob", "Cy"]) == ("You", "Bob", "Cy")
    assert table_names(3, 1, "You", ["Ann", "", "Cy"]) == ("Ann", "You", "Cy")
    # none announced, or one copying ours or another's: the player's number instead
    assert table_names(3, 0, "You", []) == ("You", "Player 2", "Player 3")
    assert table_names(3, 0, "You", ["", "You", "Cy"]) == ("You", "Player 2", "Cy")
    assert table_names(4, 0, "You", ["", "Ann", "Ann", "Dee"]) == (
        "You", "Player 2", "Player 3", "Dee",
    )  # fmt: skip


def test_the_tables_messages_name_players_as_the_table_shows_them():
    # the table's messages count players from 0 (the host); the pad says "Player 2" for 1
    names = ("You", "Bob", "Player 3", "Dee")
    assert named("player 1's link was lost (EOF): waiting 60 s", names) == (
        "Bob's link was lost (EOF): waiting 60 s"
    )
    assert named("player 2 is played by the computer from hand 4", names).startswith("Player 3 ")
    assert named("Player 3 is back", names) == "Dee is back"
    assert named("players 0 and 2 are gone", names) == "You and Player 3 are gone"
    assert named("refused: player 1 told hand 12 wrongly", names) == (
        "refused: Bob told hand 12 wrongly"
    )
    assert named("player 7 left", names) == "player 7 left"  # no such player: as it was
    assert named("hand 2: players 10 and 3", names) == "hand 2: players 10 and 3"


def test_every_player_of_a_table_knows_every_name(tmp_path):
    """Three real processes, each with its own --name: all finish knowing all three."""
    names = ["Ann", "Bob", "Cy"]

    async def scenario():
        program = lambda i: (*CLI, "--name", names[i])  # noqa: E731
        host, guests = await _open_table(tmp_path, 3, "--target", "30", program=program)
        await _finish(host, *guests, timeout=60)

    asyncio.run(scenario())
    files = ["p0.json", "join1.json", "join2.json"]
    results = [json.loads((tmp_path / f).read_text()) for f in files]
    assert [r["ended"] for r in results] == ["finished"] * 3
    assert all(r["names"] == names for r in results), [r["names"] for r in results]
