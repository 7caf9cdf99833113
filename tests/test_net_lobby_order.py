"""The lobby's rules in one process (``MemoryDirectory``, as one node alone keeps them): the
list's fair order across networks, the per-network cap, quick match over every table (never
the asker's own), and a wrong-code try given back."""

from __future__ import annotations

import asyncio
import secrets

from gin3d.net.directory import TOO_MANY_HERE, MemoryDirectory, Table, fair_order
from gin3d.net.limits import Budget, network_key
from gin3d.net.relay_metrics import Histogram, reason_label


def table(since: float, name: str = "t") -> Table:
    return Table(secrets.token_hex(32), name, "classic", 100, "", secrets.token_hex(32), since)


def test_each_networks_first_table_comes_first_the_newest_of_them_first():
    spam = [(table(i, f"spam{i}"), "127.1.0.0/24") for i in range(6)]
    others = [(table(10 + i, f"other{i}"), f"127.2.{i}.0/24") for i in range(3)]
    real = (table(100, "real"), "127.3.0.0/24")
    order = [t.name for t in fair_order([*spam, *others, real])]
    assert order[:5] == ["real", "other2", "other1", "other0", "spam0"]
    assert order[5:] == ["spam1", "spam2", "spam3", "spam4", "spam5"]


def test_networks_are_ipv4_slash_24_and_ipv6_slash_48():
    assert network_key("203.0.113.77") == "203.0.113.0/24"
    assert network_key("2001:db8:1:2::/64") == "2001:db8:1::/48"


def test_one_network_keeps_at_most_its_cap_of_open_tables():
    d = MemoryDirectory()

    async def scenario():
        said = []
        for i in range(6):
            said.append(await d.open_table(table(i), f"127.1.0.{i}", "127.1.0.0/24", 4))
        page, total = await d.tables(None, 0, 50)
        return said, total

    said, total = asyncio.run(scenario())
    assert said == ["", "", "", "", TOO_MANY_HERE, TOO_MANY_HERE] and total == 4


def test_quick_match_considers_every_table_and_never_the_askers_own():
    d = MemoryDirectory()
    tables = [table(i) for i in range(62)]

    async def scenario():
        for i, t in enumerate(tables):
            await d.open_table(t, f"127.9.{i}.1", f"127.9.{i}.0/24", 4)
        given = [await d.claim_table("classic") for _ in range(61)]
        mine = await d.claim_table("classic", tables[-1].table_id)
        last = await d.claim_table("classic")
        return given, mine, last

    given, mine, last = asyncio.run(scenario())
    assert len({t.table_id for t in given}) == 61  # each once, all 61 of the others
    assert mine is None and last.table_id == tables[-1].table_id


def test_a_wrong_code_try_given_back_is_there_again():
    budget = Budget(2, 100.0, clock=lambda: 0.0)
    assert budget.spend("a") and budget.spend("a") and not budget.spend("a")
    budget.refund("a")
    assert budget.spend("a") and not budget.spend("a")


def test_refusal_reasons_make_few_metric_labels_and_latency_buckets_add_up():
    assert (
        reason_label("too many wrong join codes: try again in 7 s") == "too_many_wrong_join_codes"
    )
    assert reason_label("unknown preset 'zz_evil'") == reason_label("unknown preset 'other'")
    hist = Histogram()
    for seconds in (0.0001, 0.003, 9.0):
        hist.observe(seconds)
    lines = hist.lines("x")
    assert 'x_bucket{le="0.0005"} 1' in lines and 'x_bucket{le="+Inf"} 3' in lines
    assert "x_count 3" in lines
