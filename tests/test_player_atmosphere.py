"""Player's-eye: the table's atmosphere. In Settings the player turns the music off, the table
ambience up, lays a burgundy felt and picks the harlequin card back; the menu's table turns
burgundy at once, the music stops, a game's face-down cards show the new back and the
ambience plays at the table; started again, the game keeps every choice.

The audio is checked as the game reports it on its status line (``audio``: what it asked
its music and ambience to do); the game plays it through OpenAL into OpenAL Soft's null
output (the harness asks for it), and ``tests/test_scene_atmosphere.py`` checks there what
the streams themselves do."""

from __future__ import annotations

import numpy as np
import pytest
from player_harness import Player, on

pytestmark = pytest.mark.slow

FELT_BOX = (980, 560, 1220, 660)  # felt on the menu's table: right of the menu, under the title


def row(p: Player, label: str, snap: dict | None = None) -> dict:
    """The button of the settings row named ``label``."""
    snap = snap or p.status()
    found = [b for b in snap.get("buttons", []) if b.get("label") == label]
    assert len(found) == 1, (label, snap.get("buttons"))
    return found[0]


def set_row(p: Player, label: str, want: str) -> None:
    """Click the row's button until it shows ``want``, one click at a time, each waited for."""
    for _ in range(8):
        shown = row(p, label)["text"]
        if shown == want:
            return
        x0, y0, x1, y1 = row(p, label)["box"]
        p.click((x0 + x1) // 2, (y0 + y1) // 2)
        p.wait(lambda s, shown=shown: row(p, label, s)["text"] != shown, 10, f"{label} changed")
    raise AssertionError(f"the {label} row never showed {want}")


def settled_menu(p: Player) -> dict:
    return p.wait(lambda s: s.get("screen") == "Menu" and not s.get("busy"), 60, "the menu")


def felt_colour(p: Player) -> np.ndarray:
    p.screenshot("atmosphere-felt-check")  # waits for the newest status to be drawn
    return p.grab(FELT_BOX).reshape(-1, 3).mean(axis=0)


def stock_back(p: Player, snap: dict) -> np.ndarray:
    """The colour of the face-down stock's top card round the point the status gives."""
    x, y = snap["stock"]
    return p.grab((x - 8, y - 8, x + 9, y + 9)).reshape(-1, 3).mean(axis=0)


def test_music_ambience_felt_and_back_are_chosen_seen_and_kept(player):
    p = player()
    snap = settled_menu(p)
    audio = snap["audio"]
    assert audio["place"] == "menu" and audio["missing"] == []
    assert audio["out"], "no audio device: the harness plays into OpenAL's null output"
    assert audio["music"] == {"playing": True, "volume": 0.5}  # the defaults
    assert not audio["ambience"]["playing"]  # the menus have music only
    assert snap["looks"] == {"felt": "green", "back": "back_blue"}
    green = felt_colour(p)
    assert green[1] > green[0] + 15 and green[1] > green[2]

    p.click_button("Settings")
    p.wait(on("Settings"), 20, "the settings")
    set_row(p, "Music", "off")
    set_row(p, "Table ambience", "100%")
    set_row(p, "Felt", "Burgundy")
    set_row(p, "Card back", "Harlequin")
    snap = p.status()
    assert snap["crowded"] == [] and snap["cut_off"] == [], (snap["crowded"], snap["cut_off"])
    p.screenshot("atmosphere-1-settings")
    p.click_button("Save")

    snap = settled_menu(p)
    assert snap["looks"] == {"felt": "burgundy", "back": "back_harlequin"}
    assert snap["audio"]["music"] == {"playing": False, "volume": 0.0}
    burgundy = felt_colour(p)
    assert burgundy[0] > burgundy[1] + 15, (green, burgundy)  # the menu's table is dyed
    p.screenshot("atmosphere-2-menu-burgundy")

    p.click_button("Play vs computer")
    p.wait(on("Setup"), 20, "the setup screen")
    p.click_button("Deal")
    snap = p.wait(lambda s: s.get("screen") == "Table" and s.get("stock"), 60, "the table")
    snap = p.wait(lambda s: not s.get("busy"), 60, "the deal done")
    assert snap["audio"]["place"] == "table"
    assert snap["audio"]["ambience"] == {"playing": True, "volume": 1.0}
    assert not snap["audio"]["music"]["playing"]
    p.screenshot("atmosphere-3-table-harlequin")
    back = stock_back(p, snap)
    assert back[1] > back[2] + 10, back  # green and gold (the blue back is bluer than green)
    p.stop()

    p = player(home=p.home)
    snap = p.wait(on("Resume"), 60, "Welcome back")
    assert snap["looks"] == {"felt": "burgundy", "back": "back_harlequin"}
    assert not snap["audio"]["music"]["playing"]
    p.click_button("Resume")
    snap = p.wait(lambda s: s.get("screen") == "Table" and s.get("stock"), 60, "the table")
    snap = p.wait(lambda s: not s.get("busy"), 60, "the resumed table still")
    assert snap["audio"]["ambience"] == {"playing": True, "volume": 1.0}
    p.screenshot("atmosphere-4-restarted-table")
    back = stock_back(p, snap)
    assert back[1] > back[2] + 10, back
    p.key("Escape")
    p.click_button("Settings")
    snap = p.wait(on("Settings"), 20, "the settings")
    assert snap["audio"]["place"] == "table" and snap["audio"]["ambience"]["playing"]
    shown = {label: row(p, label, snap)["text"] for label in ("Music", "Table ambience")}
    shown.update({label: row(p, label, snap)["text"] for label in ("Felt", "Card back")})
    assert shown == {
        "Music": "off",
        "Table ambience": "100%",
        "Felt": "Burgundy",
        "Card back": "Harlequin",
    }
    assert p.problems() == []
