"""The app-facing NetService: two services (two threads) on loopback, one seat played by a
'human' answering your_turn events, with chat, emotes and the end-of-game flow."""

from __future__ import annotations

import queue
import threading
import time

import pytest

from gin3d.engine import Discard, RuleSet
from gin3d.net.api import NetService
from gin3d.net.session import Timing
from gin3d.players import GreedyPlayer

SHORT = RuleSet.preset("classic", game_target=30)


def pump(service: NetService, until, on_event=None, timeout: float = 90.0) -> list:
    """Handle ``service``'s events (as the app's frame loop would) until ``until(seen)``."""
    seen = []
    deadline = time.monotonic() + timeout
    while not until(seen):
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"gave up waiting; saw {[e.kind for e in seen][-20:]}")
        try:
            ev = service.events.get(timeout=min(left, 1.0))
        except queue.Empty:
            continue
        seen.append(ev)
        if on_event is not None:
            on_event(ev)
    return seen


def kinds(events, kind):
    return [e for e in events if e.kind == kind]


@pytest.fixture
def services():
    host = NetService("Ann", timing=Timing(heartbeat=0.5, dead_after=5)).start()
    guest = NetService("Bob", timing=Timing(heartbeat=0.5, dead_after=5)).start()
    yield host, guest
    host.stop()
    guest.stop()


def test_host_join_play_chat_and_finish(services):
    host, guest = services
    info = host.host(
        SHORT, "Ann's table", player=GreedyPlayer(), lan=False, listen="127.0.0.1", port=0
    ).result(10)
    assert info.code and info.port and info.upnp == "not tried"
    assert guest.join_code(info.code, f"127.0.0.1:{info.port}").result(20) == "direct"
    brain = GreedyPlayer()
    chatted = []
    host_seen = []

    def host_app():  # the host's frame loop, in its own thread
        host_seen.extend(
            pump(
                host,
                lambda s: kinds(s, "ended"),
                lambda ev: ev.kind == "rematch_asked" and host.answer_rematch(False),
            )
        )

    host_loop = threading.Thread(target=host_app)
    host_loop.start()

    def app(ev):
        if ev.kind == "your_turn":
            if not chatted:
                chatted.append(guest.chat("good luck!").result(5))
                guest.emote("hello").result(5)
            guest.play(brain.choose(ev.data["view"]))
        elif ev.kind == "rematch_asked":
            guest.answer_rematch(False)

    seen = pump(guest, lambda s: kinds(s, "ended"), app)
    assert kinds(seen, "connected")[0].data["opponent"] == "Ann"
    assert kinds(seen, "game") and kinds(seen, "hand_over") and kinds(seen, "game_over")
    assert kinds(seen, "ended")[0].data["reason"] == "finished"
    assert not kinds(seen, "error")
    host_loop.join(60)
    chat = kinds(host_seen, "chat")[0].data
    assert chat == {"seat": 1, "text": "good luck!"}
    assert kinds(host_seen, "emote")[0].data == {"seat": 1, "name": "hello"}
    assert host.match.session.log.head == guest.match.session.log.head
    assert guest.status()["route"] == "direct"


def test_illegal_human_move_is_refused_locally(services):
    host, guest = services
    info = host.host(SHORT, player=GreedyPlayer(), lan=False, listen="127.0.0.1", port=0).result(10)
    guest.join_code(info.code, f"127.0.0.1:{info.port}").result(20)
    turn = pump(guest, lambda s: kinds(s, "your_turn"))[-1]
    view = turn.data["view"]
    illegal = Discard(next(c for c in range(52) if c not in view.hand))
    guest.play(illegal)
    errors = pump(guest, lambda s: kinds(s, "error"))
    assert "not legal" in kinds(errors, "error")[0].data["message"]
    guest.leave().result(5)
    ended = pump(host, lambda s: kinds(s, "ended"))
    assert kinds(ended, "ended")[0].data["reason"] == "opponent left"


def test_join_with_no_table_there_reports_an_error(services):
    _, guest = services
    fut = guest.join_code("ABCD-EFGHJK", "127.0.0.1:9")
    with pytest.raises(ConnectionError, match="cannot reach"):
        fut.result(20)
    assert kinds(guest.poll(), "error")
