"""Player's-eye scenario of the public tables a page at a time: seven tables open at a real
service node on loopback (each from its own network, as strangers' would be), the installed
game in a real X window lists five with "Tables 1-5 of 7", Next shows the other two, and
Previous goes back. Screenshots go to ``out/player/`` (or ``$GIN3D_SHOTS``)."""

from __future__ import annotations

import pytest
from service_harness import tables_held
from test_player_flows import open_online, service  # noqa: F401

pytestmark = pytest.mark.slow

NAMES = [f"Table {n}" for n in range(1, 8)]


def rows(snap: dict) -> list[str]:
    return sorted(
        t.split("  -  ")[0] for t in snap["texts"] if t.startswith("Table ") and "  -  " in t
    )


def test_online_find_lists_the_open_tables_a_page_at_a_time(player, service):  # noqa: F811
    host, port = service.address.rsplit(":", 1)
    with tables_held((host, int(port)), NAMES):
        p = player(args=("--relay", service.address, *service.game_args))
        open_online(p)
        p.click_button("Find")
        first = p.wait(p.shows("Tables 1-5 of 7"), 60, "the first page of seven tables")
        first = p.wait(lambda s: len(rows(s)) == 5, 20, "five rows")
        p.screenshot("online-find-page-1")
        assert not p.button("< Previous", first)["active"] and p.button("Next >", first)["active"]
        p.click_button("Next >")
        second = p.wait(p.shows("Tables 6-7 of 7"), 20, "the second page")
        second = p.wait(lambda s: len(rows(s)) == 2, 20, "two rows")
        p.screenshot("online-find-page-2")
        assert sorted(rows(first) + rows(second)) == sorted(NAMES)  # every table, once
        assert p.button("< Previous", second)["active"] and not p.button("Next >", second)["active"]
        p.click_button("< Previous")
        p.wait(p.shows("Tables 1-5 of 7"), 20, "the first page again")
        assert p.problems() == []
