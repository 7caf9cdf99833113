"""The budgets strangers are held to: token buckets that refill and forget, and addresses
counted so that an IPv6 attacker cannot get a fresh budget by taking the next address."""

from gin3d.net.limits import Budget, Slots, address_key


def test_a_budget_allows_its_burst_then_one_per_period_and_forgets_full_buckets():
    now = [0.0]
    budget = Budget(3, 10.0, clock=lambda: now[0])
    assert [budget.spend("a") for _ in range(4)] == [True, True, True, False]
    assert budget.wait_s("a") == 10.0 and budget.spend("b")  # another key has its own
    now[0] = 10.0
    assert budget.spend("a") and not budget.spend("a")
    now[0] = 1000.0
    assert budget.left("a") == 3.0 and budget.left("b") == 3.0


def test_an_ipv6_attacker_rotating_addresses_in_its_network_shares_one_budget():
    """The attack: a home IPv6 network has 2^64 addresses; taking the next one for each try
    would make every per-address limit useless. Limits count its /64 instead."""
    budget = Budget(2, 3600.0)
    tries = [budget.spend(address_key(f"2001:db8:1:2::{n:x}")) for n in range(1, 6)]
    assert tries == [True, True, False, False, False]
    assert budget.spend(address_key("2001:db8:1:3::1"))  # the neighbour network is not blamed
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7" == address_key("192.0.2.7")
    assert address_key("?") == "?"


def test_slots_cap_one_address_and_give_back():
    slots = Slots(2)
    for _ in range(2):
        slots.take("a")
    assert slots.full_for("a") and not slots.full_for("b")
    slots.give_back("a")
    slots.give_back("a")
    assert not slots.count
