"""Screenshots of the player's screens: resume prompt, settings, statistics, hand history and
the replay viewer (deal, mid-hand, end).

    python tools/ship_screenshots.py [out_dir] [--size 1280x720] [--games 4]

Renders offscreen. The statistics and history come from games the computer plays against
itself (both seats by ``gin3d.players.computer_player``), kept by the real ``GameKeeper`` in
a scratch ``GIN3D_HOME``; the last game is left unfinished so the resume prompt shows.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

LEVELS = ("beginner", "simple", "hard", "simple", "expert", "simple")


def make_history(games: int) -> None:
    """Computer-vs-computer games kept as if seat 0 were the player; the last one unfinished."""
    from gin3d.engine import Game, RuleSet
    from gin3d.players import computer_player
    from gin3d.recorder import GameKeeper
    from gin3d.saves import Seat

    for g in range(games + 1):
        level = LEVELS[g % len(LEVELS)]
        game = Game(RuleSet.preset("classic"), f"shots-{g}")
        seats = (Seat("human", "Ada"), Seat("computer", f"Walt ({level})", level))
        keeper = GameKeeper(game, seats)
        players = (computer_player("simple"), computer_player(level))
        limit = None if g < games else 2  # the last game: stop early in its third hand
        while not game.over:
            if (
                limit is not None
                and len(game.hands) > limit
                and not game.hand.over
                and len(game.hand.actions) > 9
            ):
                break
            legal = game.legal_actions()
            if game.hand.over:
                action = legal[0]
            else:
                action = players[game.turn].choose(game.view(game.turn))
            game.apply(action)
            keeper.update()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="out")
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args(argv)
    w, h = (int(v) for v in args.size.lower().split("x"))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    os.environ["GIN3D_HOME"] = tempfile.mkdtemp(prefix="gin3d-shots-")
    make_history(args.games)

    from panda3d.core import loadPrcFileData

    loadPrcFileData(
        "shots",
        f"window-type offscreen\naudio-library-name null\nwin-size {w} {h}"
        "\nsync-video 0\nnotify-level-display error\n"
        "notify-level-device fatal\n",
    )
    from gin3d import settings as settings_mod
    from gin3d.app import GinApp
    from gin3d.history import read_hands

    user = settings_mod.Settings(
        player_name="Ada", card_style="four_colour", undo_enabled=True, animation_speed=0.0
    )
    app = GinApp(seed=1, user_settings=user)
    saved: list[str] = []

    def shot(name: str) -> None:
        for _ in range(3):
            app.taskMgr.step()
        app.graphicsEngine.renderFrame()
        path = out / f"{name}.png"
        app.win.saveScreenshot(str(path))
        saved.append(str(path))

    assert app.screens.state == "Resume", app.screens.state
    shot("ship_1_resume")
    # each through the menu: the screens lead only where flow.TRANSITIONS says
    for name, state, *args in (
        ("ship_2_settings", "Settings", "Menu"),
        ("ship_3_statistics", "Stats", "Menu"),
        ("ship_4_history", "History"),
    ):
        app.screens.request("Menu")
        app.screens.request(state, *args)
        assert app.screens.state == state, app.screens.state
        shot(name)
    records, _ = read_hands()
    knocked = [r for r in records if r.kind in ("knock", "undercut")] or records
    record = knocked[-1]
    app.screens.request("Replay", record, 0)
    shot("ship_5_replay_deal")
    view = app.screens.current.replay_view
    view.replay.seek(min(12, record_length := view.replay.length))
    view.show()
    app.screens.current._refresh_replay()
    shot("ship_6_replay_mid_hand")
    view.replay.seek(record_length - 1)
    view.show()
    app.screens.current._refresh_replay()
    shot("ship_7_replay_before_end")
    view.end()
    app.screens.current._refresh_replay()
    shot("ship_8_replay_end")
    app.screens.request("Menu")
    shot("ship_9_menu")
    print("\n".join(saved))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
