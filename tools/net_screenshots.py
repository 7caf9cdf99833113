"""Save screenshots of the network screens: the LAN list, the host's rules setup, hosting
with a code, online join by code (with a wrong code's error), online hosting, the host's
rules offered to the guest, a network match mid-hand with the status line and chat, the same
table when the line drops, the pause menu's Save and leave, the saved matches list, and with
a service (a relay node on loopback): online hosting once the node said where it sees the
host, the Online screen, Find an opponent with a table listed, Quick match at it and
Settings' service line.

    python tools/net_screenshots.py [out_dir] [--size 1280x720]

Renders offscreen. Everything runs over loopback (127.0.0.1) with mDNS discovery and UPnP
off: the LAN list shows one real table (a computer player hosting on 127.0.0.1) and one
listed table of another version, given to the screen as a ``tables`` event. The local seat
plays through the real input path (``InputDriver``). The game's files (saved matches,
statistics) go to a temporary folder, never the user's.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


@contextlib.contextmanager
def relay_node():
    """One relay node (its directory in memory) on 127.0.0.1, on its own thread: its
    ``host:port``."""
    import asyncio
    import threading

    from gin3d.net.relay import Relay

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="shots-node", daemon=True)
    thread.start()
    relay = Relay("127.0.0.1", 0)
    asyncio.run_coroutine_threadsafe(relay.start(), loop).result(10)
    try:
        yield f"127.0.0.1:{relay.port}"
    finally:
        asyncio.run_coroutine_threadsafe(relay.close(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)


def service_screens(app, node: str, frames, shot) -> None:
    """9-13: the Online screens with a service (the relay ``node``): hosting Play a friend
    with the address the node saw, the Online screen, Find an opponent listing another
    player's table (Cara, a computer player), Quick match landing at it, and Settings'
    service line after Test."""
    from gin3d.engine import RuleSet
    from gin3d.net.api import NetService
    from gin3d.players import GreedyPlayer

    app.net_hub.config.relay = node
    cara = NetService("Cara", relay=node).start()
    try:
        app.request("Online")
        shot("10_online_play_a_friend")
        app.screens.panel.buttons["host"]["command"]()
        app.screens.panel.buttons["host"]["command"]()
        lines = app.screens.current.host_lines
        frames(lambda: any("internet" in w.getText() for w in lines), "the seen address")
        shot("9_online_hosting_service")
        app.request("Online")  # Cancel: the table closes
        cara.open_public_table(RuleSet.preset("classic"), player=GreedyPlayer()).result(20)
        frames(lambda: cara.public_tables().result(10), "Cara's table listed")
        app.request("Tables")
        frames(lambda: app.screens.current.public_tables, "the open tables")
        shot("11_find_an_opponent")
        app.screens.panel.buttons["quick:classic"]["command"]()
        frames(lambda: app.screens.state == "Offer", "quick match at Cara's table")
        shot("12_quick_match_offer")
        app.request("Menu")
        app.net_hub.close(wait=True)
        app.request("Settings", "Menu")
        p = app.screens.panel
        p.entries["service"].enterText(node)
        p.buttons["test_service"]["command"]()
        note = app.screens.current.service_note
        frames(lambda: note.getText().startswith("The service answers"), "the service's answer")
        shot("13_settings_service")
        app.request("Menu")
    finally:
        app.net_hub.close(wait=True)
        app.net_hub.config.relay = None
        cara.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="out/net")
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--detail", default="full", choices=("auto", "full", "light"))
    args = parser.parse_args(argv)
    w, h = (int(v) for v in args.size.lower().split("x"))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    home = tempfile.mkdtemp(prefix="gin3d-shots-")
    os.environ["GIN3D_HOME"] = home  # saves and statistics of these matches stay here

    from panda3d.core import loadPrcFileData

    loadPrcFileData(
        "shots",
        f"window-type offscreen\naudio-library-name null\nwin-size {w} {h}"
        "\nsync-video 0\nnotify-level-display error\n"
        "notify-level-device fatal\n",
    )
    from gin3d.app import GinApp
    from gin3d.engine import RuleSet
    from gin3d.net.api import NetEvent, NetService
    from gin3d.net.discovery import Table
    from gin3d.net.protocol import PROTOCOL_VERSION
    from gin3d.players import GreedyPlayer
    from gin3d.scene.control.autoplay import InputDriver
    from gin3d.scene.control.net_hub import NetConfig
    from gin3d.settings import Settings

    config = NetConfig(
        name="Ann",
        listen="127.0.0.1",
        port=0,
        discovery=False,
        upnp=False,
        save_dir=str(Path(home) / "net"),
    )
    app = GinApp(Settings(animation_speed=0.0), seed=1, net=config, sound=False, detail=args.detail)
    saved: list[str] = []

    def shot(name: str) -> None:
        for _ in range(2):
            app.graphicsEngine.renderFrame()
        path = out / f"{name}.png"
        app.win.saveScreenshot(str(path))
        saved.append(str(path))

    def frames(until, what: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while not until():
            if time.monotonic() > deadline:
                raise RuntimeError(f"gave up waiting for {what}")
            app.taskMgr.step()

    rules = RuleSet.preset("classic")
    bob_saves = Path(home) / "bob"
    bob_saves.mkdir()
    bob = NetService("Bob", save_dir=str(bob_saves)).start()
    try:
        info = bob.host(
            rules, "Bob's table", player=GreedyPlayer(), lan=False, listen="127.0.0.1", port=0
        ).result(20)
        # 1. the LAN list
        app.request("Lan")
        tables = [
            Table(
                "bob",
                "Bob's table",
                "127.0.0.1",
                info.port,
                PROTOCOL_VERSION,
                bob.match.identity.fingerprint,
                False,
                rules,
            ),
            Table(
                "kitchen",
                "Kitchen table",
                "127.0.0.1",
                47470,
                PROTOCOL_VERSION,
                "1" * 64,
                True,
                RuleSet.preset("oklahoma", last_chance=True),
            ),
            Table(
                "attic",
                "Attic (old build)",
                "127.0.0.1",
                47471,
                PROTOCOL_VERSION + 1,
                "2" * 64,
                True,
            ),
        ]
        app.net_hub.local.put(NetEvent("tables", {"tables": tables}))
        frames(lambda: len(app.screens.current.table_rows) == 9, "the LAN list")
        shot("1_lan_list")
        # 2. the host's rules (the single-player setup's rows), then hosting with a code
        app.screens.panel.buttons["open"]["command"]()
        app.screens.panel.buttons["host"]["command"]()
        p = app.screens.panel
        while p.buttons["preset"]["text"] != "pagat":
            p.buttons["preset"]["command"]()
        p.buttons["last_chance"]["command"]()
        shot("2a_host_setup_rules")
        app.screens.panel.buttons["host"]["command"]()
        frames(
            lambda: "Join code" in app.screens.current.host_lines[0].getText(), "the hosting screen"
        )
        shot("2_hosting_code")
        app.request("Online")
        app.screens.panel.buttons["host"]["command"]()
        app.screens.panel.buttons["host"]["command"]()
        frames(
            lambda: "UPnP" in app.screens.current.host_lines[2].getText(), "the online host screen"
        )
        shot("2b_online_hosting")
        app.request("Online")
        # 3. online join by code: a wrong code's error
        p = app.screens.panel
        p.entries["code"].enterText("ABCD-EFGHJK")
        p.entries["address"].enterText(f"127.0.0.1:{info.port}")
        p.buttons["join"]["command"]()
        frames(lambda: "authenticate" in app.screens.current.note.getText(), "the wrong-code error")
        shot("3_online_wrong_code")
        # 4. the right code: a match on the table, mid-hand, with the status line and chat
        p.entries["code"].enterText(info.code)
        p.buttons["join"]["command"]()
        frames(lambda: app.screens.state == "Offer", "the host's rules")
        shot("3b_offer_rules")
        app.screens.panel.buttons["accept"]["command"]()
        session = app.session
        ctl = session.controller
        session.chat.type_and_send("good luck!")
        bob.chat("thanks, have fun").result(5)
        bob.emote("hello").result(5)
        driver = InputDriver(app)
        for _ in range(6):
            frames(lambda: ctl.waiting_for_human(), "our turn")
            driver.play_turn()
        frames(lambda: ctl.waiting_for_human() and len(session.chat.lines) >= 3, "our turn")
        session.refresh_status()
        shot("4_table_mid_hand")
        # 5. how the table says the line dropped (the event the service sends then)
        session.handle(NetEvent("status", {"text": "waiting for opponent…"}))
        shot("5_table_line_dropped")
        session.handle(NetEvent("status", {"text": "connected"}))
        # 6. finish the hand, then Esc: the pause menu offers Save and leave
        for _ in range(200):
            frames(
                lambda: ctl.waiting_for_human() or app.screens.state == "HandResult",
                "our turn or the result",
            )
            if app.screens.state == "HandResult":
                break
            driver.play_turn()
        frames(lambda: ctl.held, "the next deal")
        app.screens.panel.buttons["next"]["command"]()
        frames(lambda: ctl.waiting_for_human(), "our turn in hand 2")
        app.messenger.send("escape")
        shot("6_pause_save_and_leave")
        app.screens.panel.buttons["save"]["command"]()
        frames(lambda: app.screens.state == "Menu", "the menu after saving")
        shot("6b_menu_after_saving")
        # 7. the saved matches list, with a damaged file listed as unreadable
        (Path(config.save_dir) / "gin3d-match-0badc0ffee00-host.json").write_text("{ torn")
        app.request("Online")
        app.screens.panel.buttons["saved"]["command"]()
        shot("7_saved_matches")
        app.screens.panel.buttons["delete1"]["command"]()
        shot("7b_delete_saved")
        # 8. resuming a match we hosted: Bob's side of the same match, as if it were ours
        app.screens.panel.buttons["no"]["command"]()
        import shutil

        frames(lambda: bob.match.done, "Bob's side to end")
        theirs = next(bob_saves.glob("gin3d-match-*-host.json"))
        shutil.copy(theirs, Path(config.save_dir) / theirs.name)
        app.request("Saved")
        row = next(i for i, m in enumerate(app.screens.current.saved) if m.ok and m.role == "host")
        app.screens.panel.buttons[f"resume{row}"]["command"]()
        frames(lambda: "Join code" in app.screens.current.host_lines[0].getText(), "resume hosting")
        shot("8_resume_hosting")
        app.request("Menu")
        app.net_hub.close(wait=True)
        with relay_node() as node:
            service_screens(app, node, frames, shot)
    finally:
        app.net_hub.close(wait=True)
        bob.stop()
    print("\n".join(saved))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
