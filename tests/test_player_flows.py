"""Player's-eye scenarios: the installed game in a real X window, played with real input at
normal animation speed (see ``tests/player_harness.py``). Screenshots of each end state go to
``out/player/`` (or ``$GIN3D_SHOTS``) for a person to look at."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from player_harness import Player, XServer, my_move, play_until

pytestmark = pytest.mark.slow
SHOTS = Path(os.environ.get("GIN3D_SHOTS", Path(__file__).resolve().parent.parent / "out"
                            / "player"))


@pytest.fixture(scope="module")
def xserver():
    x = XServer().start()
    yield x
    x.stop()


@pytest.fixture
def player(xserver, tmp_path):
    players: list[Player] = []

    def make(home: Path | None = None, args: tuple[str, ...] = ()) -> Player:
        p = Player(xserver, home or tmp_path / "home", SHOTS, args=args)
        players.append(p)
        return p.start()

    yield make
    for p in players:
        p.stop()


def on(screen: str):
    return lambda s: s.get("screen") == screen


def start_single_player(p: Player, seed_note: str = "") -> dict:
    p.wait(on("Menu"), 60, "the main menu")
    p.click_button("Play vs computer")
    p.wait(on("Setup"), 20, "the setup screen")
    p.click_button("Deal")
    return p.wait(on("Table"), 20, "the table")


def test_resume_after_quitting_at_a_hand_result(player):
    """Quit to the menu while a hand's result shows, start again: Welcome back -> Resume
    continues the game (it used to kill the app: AlreadyInTransition Menu -> Table), and so
    does the menu's Resume game."""
    p = player(args=("--seed", "7"))
    start_single_player(p)
    play_until(p, on("HandResult"), 300, "the first hand's result")
    p.screenshot("resume-1-hand-result")
    p.key("Escape")
    p.click_button("Quit to menu")
    p.wait(on("Menu"), 20, "the menu after quitting")
    p.stop()

    p = player(home=p.home)
    snap = p.wait(on("Resume"), 60, "Welcome back")
    assert p.shows("You have a game in progress")(snap)
    p.screenshot("resume-2-welcome-back")
    p.click_button("Resume")
    snap = p.wait(lambda s: s.get("screen") in ("HandResult", "Table") and p.alive(), 30,
                  "the resumed game")
    snap = p.wait(on("HandResult"), 30, "the hand's result again")
    p.screenshot("resume-3-resumed-result")
    p.click_button("Next hand")
    snap = p.wait(lambda s: s.get("screen") == "Table" and s.get("hands") == 2, 30,
                  "the second hand dealt")
    p.key("Escape")
    p.click_button("Quit to menu")
    p.wait(on("Menu"), 20, "the menu")
    p.click_button("Resume game")
    snap = p.wait(lambda s: s.get("screen") == "Table" and s.get("hands") == 2, 30,
                  "the menu's Resume continuing the second hand")
    play_until(p, lambda s: my_move(s) or s.get("screen") != "Table", 60, "a move to make")
    p.screenshot("resume-4-menu-resume")
    assert p.problems() == []
