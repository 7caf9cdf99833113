"""Save screenshots of gin3d's screens: main menu, the deal, mid-hand with melds grouped,
the knock spread, the hand result and game over.

    python tools/screenshots.py [out_dir] [--size 1280x720] [--seed 245] [--knocks 4]
        [--detail auto] [--teams]

With ``--knocks N``: instead, the moments the first N hands are decided (each knock or gin
as it is laid out, each layoff, the Knock!/Gin! banner over the spread, each result);
seed 245's first hands hold a gin by you, a knock, your layoff and an undercut.

With ``--teams``: instead, a partnership game (you and a computer partner against two):
mid-hand with your partner's table in the inset, the inset mid-move (a card of theirs in
flight), your hand over while your partner's goes on, your partner's hand watched on the
table (W) with yours in the inset, the round result, game over, and in a second game your
partner's hand over (its result line in the inset) while yours goes on.

Renders offscreen (no display needed). The local seat is played by ``InputDriver`` through
the real input path against the simple computer player.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="out")
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--seed", type=int, default=245)
    from gin3d.scene.media.quality import add_detail_option

    add_detail_option(parser)
    parser.add_argument("--knocks", type=int, default=0, metavar="N")
    parser.add_argument("--teams", action="store_true", help="a partnership game's moments")
    args = parser.parse_args(argv)
    w, h = (int(v) for v in args.size.lower().split("x"))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    from panda3d.core import loadPrcFileData

    loadPrcFileData(
        "shots",
        f"window-type offscreen\naudio-library-name null\nwin-size {w} {h}"
        "\nsync-video 0\nnotify-level-display error\n"
        "notify-level-device fatal\n",
    )
    from gin3d.app import GinApp
    from gin3d.engine import RuleSet
    from gin3d.players import GreedyPlayer, opponent_name
    from gin3d.scene.control.autoplay import InputDriver
    from gin3d.settings import Settings

    speed = 0.0 if args.knocks or args.teams else 1.0
    app = GinApp(Settings(animation_speed=speed), seed=args.seed, sound=False, detail=args.detail)
    saved: list[str] = []

    def shot(name: str) -> None:
        for _ in range(2):
            app.graphicsEngine.renderFrame()
        path = out / f"{f'{len(saved):02d}_' if args.knocks else ''}{name}.png"
        app.win.saveScreenshot(str(path))
        saved.append(str(path))

    if args.knocks or args.teams:
        if args.teams:
            _team_moments(app, shot)
        else:
            _knock_moments(app, shot, args.seed, args.knocks)
        print("\n".join(saved))
        return 0

    def frames(until, limit: int = 2000) -> None:
        for _ in range(limit):
            if until():
                return
            app.taskMgr.step()
        raise RuntimeError("the scene never reached the wanted state")

    shot("1_menu")
    app.screens.request("Setup")
    shot("1b_setup")
    # named as the steady level's player, so the table shows that level's portrait
    names = ("You", opponent_name("simple"))
    session = app.start_game(
        [None, GreedyPlayer()], RuleSet.preset("classic"), seed=args.seed, names=names
    )
    scene = app.scene
    frames(lambda: len(scene.hands[0]) + len(scene.hands[1]) >= 13)
    shot("2_deal")
    app.set_speed(0.0)
    app.queue.finish_all()
    app.taskMgr.step()
    driver = InputDriver(app)
    ctl = session.controller

    _play_to_melds(ctl, driver)
    shot("3_mid_hand")
    app.request("Pause")
    shot("3b_pause")
    app.screens.panel.buttons["rules"]["command"]()
    shot("3c_rules")
    app.request("Pause")  # the rules lead back to the pause menu only
    app.request("Table")
    _play_to_a_knock(app, ctl, driver)
    panel = app.screens.panel
    if panel is not None:
        panel.frame.hide()
    shot("4_knock_spread")
    if panel is not None:
        panel.frame.show()
    if not ctl.game.hand.over:
        driver.play_hand()
    shot("5_hand_result")
    while app.screens.state != "GameOver":
        app.screens.panel.buttons["next"]["command"]()
        driver.play_hand()
    shot("6_game_over")
    print("\n".join(saved))
    return 0


def _team_moments(app, shot) -> None:
    """A partnership game at animation speed 0, your partner's computers held in thought
    after your first moves so the moments with their hand still going can be seen."""
    from gin3d.app.game_app import GameSetup
    from gin3d.scene.control.autoplay import InputDriver

    app.setup = GameSetup(level="simple", players=4)
    session = app.start_single_player()
    ctl, driver = session.controller, InputDriver(app)
    for _ in range(4):
        driver.play_turn()
    shot("teams_1_mid_hand")
    _inset_mid_move(app, ctl)
    shot("teams_1b_inset_mid_move")
    app.set_speed(0.0)
    ctl.inset.queue.finish_all()
    app.queue.finish_all()
    pace, ctl.partner.pace = ctl.partner.pace, lambda seconds: 1e6
    driver.play_hand()
    shot("teams_2_your_hand_over")
    app.messenger.send("w")
    shot("teams_3_watching_partner")
    ctl.partner.pace = pace
    ctl.partner.restart_pause()
    for _ in range(400):
        if app.screens.state != "Table":
            break
        app.taskMgr.step()
    shot("teams_4_round_result")
    while app.screens.state == "HandResult":
        app.screens.panel.buttons["next"]["command"]()
        driver.play_hand()
        for _ in range(5):
            if app.screens.state != "Table":
                break
            app.taskMgr.step()
    shot("teams_5_game_over")
    app.seed = 7
    session = app.start_single_player()  # you hold your turn; your partner's hand plays out
    table = session.controller.game.partner
    for _ in range(2000):
        if table.hand.over:
            break
        app.taskMgr.step()
    shot("teams_6_partner_hand_over")


def _inset_mid_move(app, ctl) -> None:
    """At animation speed 1, step frames until a discard at your partner's table is half
    way to the pile in the inset (or a thousand frames have gone)."""
    from panda3d.core import ClockObject

    from gin3d.engine import Discarded

    clock = ClockObject.getGlobalClock()
    thrown: list[float] = []

    def seen(action, events) -> None:
        if not thrown and any(isinstance(e, Discarded) for e in events):
            thrown.append(clock.getFrameTime())

    ctl.partner.on_applied.append(seen)
    app.set_speed(1.0)
    for _ in range(1000):
        app.taskMgr.step()
        if thrown and clock.getFrameTime() - thrown[0] >= 0.2:
            break
    ctl.partner.on_applied.remove(seen)


def _play_to_melds(ctl, driver) -> None:
    """Play on until the local seat is to discard holding two melds (or the hand ends)."""
    from gin3d.engine import best_melds

    for _ in range(60):
        view = ctl.view(0)
        if view.phase == "discard" and len(best_melds(list(view.hand)).melds) >= 2:
            return
        if ctl.game.hand.over:
            return
        driver.play_turn()


def _play_to_a_knock(app, ctl, driver) -> None:
    """Play hands until one has a knock: stop at its layoff, or at its end."""
    from gin3d.engine import Knocked

    knocked: list = []
    ctl.on_applied.append(
        lambda action, events: knocked.extend(e for e in events if isinstance(e, Knocked))
    )
    for _ in range(400):
        if ctl.game.hand.over:
            if knocked:
                return
            app.screens.panel.buttons["next"]["command"]()
        if knocked and ctl.view(0).phase == "layoff":
            return
        driver.play_turn()


def _knock_moments(app, shot, seed: int, hands: int) -> None:
    """Shoot each knock, layoff, banner and result of the first ``hands`` hands."""
    from gin3d.engine import Knocked, LaidOff, RuleSet
    from gin3d.players import GreedyPlayer
    from gin3d.scene.control.autoplay import InputDriver

    session = app.start_game([None, GreedyPlayer()], RuleSet.preset("classic"), seed=seed)
    app.scene.set_sort("melds")
    ctl = session.controller
    driver = InputDriver(app)
    events: list = []
    ctl.on_applied.append(lambda action, evs: events.extend(evs))
    banners = 0
    for hand_no in range(hands):
        while not ctl.game.hand.over:
            events.clear()
            driver.play_turn()
            app.queue.finish_all()
            for e in events:
                who = "you" if getattr(e, "seat", 1) == 0 else "computer"
                if isinstance(e, Knocked):
                    shot(f"hand{hand_no}_{e.kind}_by_{who}")
                    if banners < 2:
                        banners += 1
                        _banner_shot(app, e, shot, f"hand{hand_no}_{e.kind}_banner")
                elif isinstance(e, LaidOff):
                    shot(f"hand{hand_no}_layoff_by_{who}")
        shot(f"hand{hand_no}_result")
        if app.screens.state != "HandResult":
            break
        app.screens.panel.buttons["next"]["command"]()


def _banner_shot(app, e, shot, name: str) -> None:
    """The knock's banner as it stands, at full size, over the laid-out spread."""
    word = {"gin": "Gin!", "big_gin": "Big Gin!"}.get(e.kind, "Knock!")
    colour = (1, 0.96, 0.85, 1) if e.kind == "knock" else (1.0, 0.85, 0.3, 1)
    app.queue.speed = 1.0
    pop = app.scene.banner(word, colour)
    pop.start()
    pop.setT(pop.getDuration() * 0.5)
    shot(name)
    pop.finish()
    app.queue.speed = 0.0


if __name__ == "__main__":
    raise SystemExit(main())
