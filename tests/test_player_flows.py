"""Player's-eye scenarios: the installed game in a real X window, played with real input at
normal animation speed (see ``tests/player_harness.py``). Screenshots of each end state go to
``out/player/`` (or ``$GIN3D_SHOTS``) for a person to look at."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from player_harness import (
    ROOT,
    SHOTS,
    Player,
    card_at,
    end,
    my_cards,
    my_move,
    on,
    play_move,
    play_until,
    write_png,
)

pytestmark = pytest.mark.slow


def start_single_player(p: Player, seed_note: str = "") -> dict:
    p.wait(on("Menu"), 60, "the main menu")
    p.click_button("Play vs computer")
    p.wait(on("Setup"), 20, "the setup screen")
    p.click_button("Deal")
    return p.wait(on("Table"), 20, "the table")


def test_resume_after_quitting_at_a_hand_result(player):
    """Quit to the menu while a hand's result shows, start again: Welcome back -> Resume
    continues the game (it used to kill the app: AlreadyInTransition Menu -> Table), and so
    does the menu's Resume game; the hand history then lists the hand as "You vs Walt" and
    its replay has "You" near (they said "Player", the settings' default name)."""
    p = player(args=("--seed", "7"))
    start_single_player(p)
    play_until(p, on("HandResult"), 300, "the first hand's result")
    p.screenshot("resume-1-hand-result")
    p.key("Escape")
    p.click_button("Quit to menu")
    snap = p.wait(
        lambda s: s.get("screen") == "Menu" and not s.get("busy"), 20, "the menu after quitting"
    )
    p.screenshot("menu-after-a-game")
    assert (snap["cards_out"], snap["glows"]) == (0, 0), "the last game's cards stay"
    p.stop()

    p = player(home=p.home)
    snap = p.wait(on("Resume"), 60, "Welcome back")
    assert p.shows("You have a game in progress")(snap)
    # whose score is whose: "..., score you 0, Walt 15" (it said "score 0 to 15")
    assert any(", score you " in t and ", Walt " in t for t in snap["texts"]), snap["texts"]
    p.screenshot("resume-2-welcome-back")
    p.click_button("Resume")
    snap = p.wait(
        lambda s: s.get("screen") in ("HandResult", "Table") and p.alive(), 30, "the resumed game"
    )
    snap = p.wait(on("HandResult"), 30, "the hand's result again")
    p.screenshot("resume-3-resumed-result")
    p.click_button("Next hand")
    snap = p.wait(
        lambda s: s.get("screen") == "Table" and s.get("hands") == 2, 30, "the second hand dealt"
    )
    # the score pad on the felt has the first hand pencilled in, from before the restart:
    # the winner's total in their column, under the names; a click on it brings the sheet
    p.screenshot("resume-3a-score-pad")
    pad = snap["pad"]
    scores = snap["scores"]
    winner = 0 if scores[0] > scores[1] else 1
    assert pad["lines"][0] == ["You", "Walt"], pad
    assert pad["lines"][1][winner].split()[0] == str(scores[winner]), (pad, scores)
    assert pad["lines"][1][1 - winner] == "", pad
    p.click(*pad["at"])
    p.wait(p.shows("Score sheet"), 10, "the score sheet from a click on the pad")
    p.key("Tab")
    p.wait(lambda s: not p.shows("Score sheet")(s), 10, "the score sheet away")
    # the score sheet (Tab) has the first hand, from before the restart: its winner's points
    p.key("Tab")
    sheet = p.wait(p.shows("Score sheet"), 10, "the score sheet")
    p.screenshot("resume-3b-score-sheet")
    assert p.shows("Total")(sheet) and {str(v) for v in scores} <= set(sheet["texts"]), (
        scores,
        sheet["texts"],
    )
    assert any(
        t.startswith("+") and t.endswith(("knock", "gin", "undercut")) for t in sheet["texts"]
    )
    p.key("Tab")
    p.wait(lambda s: not p.shows("Score sheet")(s), 10, "the score sheet away")
    p.key("Escape")
    p.click_button("Quit to menu")
    p.wait(on("Menu"), 20, "the menu")
    p.click_button("Resume game")
    snap = p.wait(
        lambda s: s.get("screen") == "Table" and s.get("hands") == 2,
        30,
        "the menu's Resume continuing the second hand",
    )
    play_until(p, lambda s: my_move(s) or s.get("screen") != "Table", 60, "a move to make")
    p.screenshot("resume-4-menu-resume")
    # the hand history and its replay say "You", not the settings' default name "Player"
    p.key("Escape")
    p.click_button("Quit to menu")
    p.wait(on("Menu"), 20, "the menu")
    p.click_button("Hand history")
    snap = p.wait(on("History"), 20, "the hand history")
    hands = [b for b in snap["buttons"] if "Hand 1:" in b["text"]]
    p.screenshot("resume-5-hand-history")
    assert len(hands) == 1 and "   You vs Walt   " in hands[0]["text"], snap["buttons"]
    assert "Player" not in hands[0]["text"], hands[0]["text"]
    x0, y0, x1, y1 = hands[0]["box"]
    p.click((x0 + x1) // 2, (y0 + y1) // 2)
    snap = p.wait(on("Replay"), 20, "the hand's replay")
    p.screenshot("resume-6-replay")
    assert p.shows("Replay of hand 1: You near, Walt far")(snap), snap["texts"]
    # the game's score sheet is kept with its hands: Tab in the replay brings it, to this hand
    p.key("Tab")
    sheet = p.wait(p.shows("Score sheet"), 10, "the game's score sheet in the replay")
    p.screenshot("resume-7-replay-score-sheet")
    assert p.shows("Total")(sheet) and str(max(scores)) in sheet["texts"], sheet["texts"]
    p.click_button("Scores (Tab)")
    p.wait(lambda s: not p.shows("Score sheet")(s), 10, "the sheet away by its button")
    assert p.problems() == []


def test_three_players_watch_a_hand_you_sit_out_then_resume_it(player):
    """Players 3 on the setup screen; seed 29: you deal the first hand and sit it out, the
    two computers play it with the sit-out prompt and three score lines, and Skip hand takes
    you to its result at once (you sat through about 90 s of it); the result shows three
    scores; quit to the menu, and Resume game brings the result back and
    plays on into the next hand, yours."""
    p = player(args=("--seed", "29"))
    p.wait(on("Menu"), 60, "the main menu")
    p.click_button("Play vs computer")
    p.wait(on("Setup"), 20, "the setup screen")
    p.click_button("2")  # the Players row: 2 -> 3
    snap = p.wait(p.shows("You and two computers"), 20, "three players chosen")
    second = p.button("Margo", snap)
    assert second is not None, labels(snap)  # the second opponent's row, filled in now
    p.screenshot("three-1-setup")
    p.click_button("Deal")
    snap = p.wait(p.shows("You sit out this hand"), 30, "the hand you sit out")
    assert p.shows("Walt plays Margo")(snap) or p.shows("Margo plays Walt")(snap), snap["texts"]
    assert p.shows("sits out this hand")(snap), snap["texts"]  # your badge on the bench
    p.screenshot("three-2-sitting-out")
    # no need to sit through it: Skip hand plays the rest of it at once
    assert p.button("Skip hand (End)", snap) is not None, labels(snap)
    p.click_button("Skip hand (End)")
    clicked = time.monotonic()
    snap = p.wait(on("HandResult"), 10, "the watched hand's result, skipped to")
    print(f"skipped to the watched hand's result in {time.monotonic() - clicked:.2f} s")
    text = " ".join(snap.get("texts", []))
    result = [t for t in snap["texts"] if "won the hand" in t or "Drawn hand" in t]
    assert result, text
    for name in ("You", "Walt", "Margo"):
        assert f"{name} " in text, text  # three scores
    p.screenshot("three-3-result")
    p.key("Escape")
    p.click_button("Quit to menu")
    p.wait(p.has_button("Resume game"), 20, "the menu with Resume game")
    p.click_button("Resume game")
    snap = p.wait(on("HandResult"), 30, "the result again, resumed")
    assert set(result) <= set(snap["texts"]), snap["texts"]  # the same hand's result
    p.click_button("Next hand")
    snap = play_until(
        p, lambda s: my_move(s) and s.get("hands") == 2, 60, "your move in the second hand"
    )
    assert not p.shows("You sit out this hand")(snap)
    p.screenshot("three-4-resumed-next-hand")
    # the score sheet (Tab): a column per player, the first hand's line with a dash for
    # you, who sat it out
    p.key("Tab")
    sheet = p.wait(p.shows("Score sheet"), 10, "the three players' score sheet")
    p.screenshot("three-5-score-sheet")
    assert p.shows("Hand")(sheet) and p.shows("Margo")(sheet), sheet["texts"]
    assert "-" in sheet["texts"] and p.shows("Total")(sheet), sheet["texts"]
    assert not sheet["crowded"] and not sheet["cut_off"], (sheet["crowded"], sheet["cut_off"])
    p.key("Tab")
    p.wait(lambda s: not p.shows("Score sheet")(s), 10, "the sheet away")
    assert p.problems() == []


def test_menu_screens_keep_their_texts_whole_and_clear_of_buttons(player):
    """Every screen off the main menu: no text runs past the window's edge or touches a
    button (the setup's rule notes touched the next row's buttons, Settings' "not available
    on this renderer" the Animation button)."""
    p = player()
    snap = p.wait(on("Menu"), 60, "the main menu")
    screens = (
        ("Play vs computer", "Setup"),
        ("Tournament", "Tournament"),
        ("Statistics", "Stats"),
        ("Achievements", "Achievements"),
        ("Settings", "Settings"),
        ("Rules", "Rules"),
        ("LAN", "Lan"),
        ("Online", "Online"),
        ("Tutorial", "Tutorial"),
    )
    seen = {"Menu": (snap["crowded"], snap["cut_off"])}
    for label, screen in screens:
        p.click_button(label)
        p.wait(lambda s, screen=screen: s.get("screen") == screen, 20, f"the {screen} screen")
        snap = p.wait(lambda s: not s.get("busy"), 20, "the screen at rest")
        seen[screen] = (snap["crowded"], snap["cut_off"])
        p.screenshot(f"layout-{screen.lower()}")
        p.key("Escape")
        p.wait(on("Menu"), 20, "the main menu again")
    bad = {screen: found for screen, found in seen.items() if found != ([], [])}
    assert bad == {}, bad
    assert p.problems() == []


def test_end_hurries_the_computers_move(player):
    """At normal speed, End while the computer thinks: its move is made at once and ours
    comes back (the time it took is printed; the offscreen test checks that nothing waits)."""
    p = player(args=("--seed", "7"))
    start_single_player(p)
    while True:  # to the computer's turn
        snap = p.wait(
            lambda s: my_move(s) or (s.get("turn") == 1 and s.get("phase") not in ("over", None)),
            60,
            "the computer's turn",
        )
        if not my_move(snap):
            break
        play_move(p, snap, knock=False)
    p.key("End")
    pressed = time.monotonic()
    p.wait(lambda s: my_move(s) or s.get("screen") != "Table", 20, "our move again")
    print(f"our move came back {time.monotonic() - pressed:.2f} s after End")
    p.screenshot("hurried-computer-move")
    assert p.problems() == []


def pause_and_back(p: Player, name: str) -> tuple[dict, dict]:
    """Esc, Esc: the pause menu and back; returns the table before and after."""
    before = p.status()
    p.key("Escape")
    p.wait(on("Pause"), 20, "the pause menu")
    p.key("Escape")
    after = p.wait(
        lambda s: (
            s.get("screen") == "Table"
            and s.get("prompt")
            and s.get("glows", 0) >= before.get("glows", 0)
        ),
        20,
        f"the table's prompt and glows back after the pause ({name})",
    )
    p.screenshot(f"pause-{name}")
    return before, after


def labels(snap: dict) -> set[str]:
    return {b["text"] for b in snap.get("buttons", [])}


def test_pause_and_resume_keep_the_prompt_buttons_and_glows(player):
    """Esc, Esc during the upcard offer, a discard and the layoffs: the prompt, the
    Take/Pass/Knock/Hint buttons and the glows come back (they vanished, input still on)."""
    p = player(args=("--seed", "11"))
    snap = start_single_player(p)
    snap = p.wait(lambda s: my_move(s) or s.get("phase") != "upcard", 60, "the upcard offer")
    if my_move(snap) and snap["prompt"].startswith("Take the"):
        before, after = pause_and_back(p, "upcard")
        assert after["prompt"] == before["prompt"]
        assert {"Take", "Pass"} <= labels(after), labels(after)
        assert after["glows"] >= 1
        play_move(p, after)
    snap = play_until(
        p, lambda s: my_move(s) and s["prompt"].startswith("Discard"), 120, "a discard to make"
    )
    before, after = pause_and_back(p, "discard")
    assert (after["prompt"], after["glows"]) == (before["prompt"], before["glows"])
    assert "Hint (h)" in labels(before) and labels(before) == labels(after)
    snap = play_until(
        p,
        lambda s: my_move(s) and s["prompt"].startswith(("Lay off", "Nothing to lay")),
        420,
        "a layoff turn",
        knock=False,
    )
    before, after = pause_and_back(p, "layoff")
    assert after["prompt"] == before["prompt"]
    assert "Done" in labels(after), labels(after)
    assert p.problems() == []


def test_tutorial_play_along_shows_the_hand_and_points_at_it(player):
    """Chapter 5 in Play along: the learner's hand is on screen and clear of the narration
    panel, the arrow points at something visible outside the panel; the lesson's discard
    takes the table's clicks (a first click selects, a second discards); back at the menu the
    table is cleared."""
    p = player()
    p.wait(on("Menu"), 60, "the main menu")
    p.click_button("Tutorial")
    p.wait(on("Tutorial"), 20, "the tutorial")
    p.click_button("Mode: Watch")
    p.wait(p.has_button("Mode: Play along"), 10, "Play along mode")
    p.click_button("5.")
    snap = p.wait(
        lambda s: s.get("tutorial") and s.get("hand") and not s.get("busy"), 60, "chapter 5's table"
    )
    p.screenshot("tutorial-5-start")
    # the prompt's suit chip ("... take the J♥") sits in the line: the heart's top no higher
    # than the tallest letters (it stood above them, against the prompt's frame)
    assert any("take the J" in t for t in snap["texts"]), snap["texts"]
    band = p.grab((285, 0, 995, 45)).astype(int)
    r, g, b = band[..., 0], band[..., 1], band[..., 2]
    heart = np.nonzero(((r > 170) & (g < 90) & (b < 90)).any(axis=1))[0]
    letters = np.nonzero(((r > 200) & (g > 200) & (b > 150))[:, :300].any(axis=1))[0]
    assert heart.size and letters.size
    assert heart.min() >= letters.min(), (heart.min(), letters.min())
    w, h = snap["window"]
    panel = snap["tutorial"]["panel"]
    # the panel ends left of the stock (the stock's point is its middle, the card about 175
    # px wide in this view: the panel reached 40 px over its left edge)
    assert panel[2] < snap["stock"][0] - 80, (panel, snap["stock"])
    for card in snap["hand"]:
        assert card["at"] is not None, f"the {card['card']} cannot be seen or clicked"
        x, y = card["at"]
        assert 0 <= x < w and 0 <= y < h
        assert not (panel[0] <= x <= panel[2] and panel[1] <= y <= panel[3]), (
            f"the {card['card']} is under the narration panel"
        )
    # the lesson's draw, then its discard with the table's clicks: the card, then again
    p.click(*snap["stock"])
    snap = p.wait(
        lambda s: any("then the pile" in t for t in s["texts"]) and not s.get("busy"),
        30,
        "the lesson's discard step",
    )
    p.click(*card_at(snap, "KC"))
    snap = p.wait(lambda s: s.get("selected") == "KC", 10, "the K♣ selected")
    p.screenshot("tutorial-5-discard-selected")
    assert "KC" in [c["card"] for c in snap["hand"]], "one click discarded: the table's doesn't"
    assert any("click it again or the pile" in t for t in snap["texts"]), snap["texts"]
    p.click(*card_at(snap, "KC"))
    p.wait(lambda s: "KC" not in [c["card"] for c in s["hand"]], 20, "the K♣ discarded")
    p.key("Escape")
    p.wait(p.has_button("Main menu"), 20, "the chapter list")
    p.click_button("Main menu")
    snap = p.wait(lambda s: s.get("screen") == "Menu" and not s.get("busy"), 20, "the menu")
    p.screenshot("menu-after-the-tutorial")
    assert (snap["cards_out"], snap["glows"]) == (0, 0), "the tutorial's cards stay"
    assert p.problems() == []


def test_tutorial_arrow_stands_clear_of_the_narration_panel(player):
    """Chapter 7's second step (Watch) points at the 6♥ just right of the narration panel:
    the whole arrow, through its bob, is drawn clear of the panel (its tail was under it),
    and no empty prompt band stands over the lesson's table."""
    p = player()
    p.wait(on("Menu"), 60, "the main menu")
    p.click_button("Tutorial")
    p.wait(on("Tutorial"), 20, "the tutorial")
    p.click_button("7.")
    p.wait(lambda s: any("Step 1 of 5" in t for t in s["texts"]), 60, "chapter 7's first step")
    p.key("space")
    snap = p.wait(
        lambda s: (
            any("Step 2 of 5" in t for t in s["texts"])
            and not s.get("busy")
            and (s.get("tutorial") or {}).get("arrow_box")
        ),
        30,
        "chapter 7's second step, the arrow up",
    )
    p.screenshot("tutorial-7-arrow")
    panel, arrow = snap["tutorial"]["panel"], snap["tutorial"]["arrow_box"]
    assert panel[2] <= arrow[0] or arrow[2] <= panel[0] or panel[3] <= arrow[1], (panel, arrow)
    w, _ = snap["window"]
    band = p.grab((w // 2 - 300, 8, w // 2 + 300, 40)).astype(int)
    gold = (band[..., 0] > 150) & (band[..., 1] > 110) & (band[..., 2] < 90)
    assert gold.sum() < 50, "an empty prompt band stands over the lesson's table"
    assert p.problems() == []


def test_nothing_is_lost_without_asking(player):
    """Resign, Welcome back -> New game and dealing over a saved game each ask first;
    Cancel (or Esc) keeps the game (New game deleted the save silently, Resign at once)."""
    p = player(args=("--seed", "3"))
    start_single_player(p)
    play_until(
        p,
        lambda s: (
            s.get("screen") == "Table"
            and len(s.get("hand", [])) == 10
            and my_move(s)
            and s["prompt"].startswith("Draw")
        ),
        120,
        "a draw to make",
        knock=False,
    )
    p.key("Escape")
    p.click_button("Resign")
    snap = p.wait(p.shows("Resign this game?"), 20, "the resign question")
    p.screenshot("ask-resign")
    p.click_button("Cancel")
    p.wait(on("Pause"), 20, "the pause menu again")
    p.click_button("Quit to menu")
    p.wait(p.has_button("Resume game"), 20, "the menu with Resume game")
    p.stop()

    p = player(home=p.home)
    p.wait(on("Resume"), 60, "Welcome back")
    p.click_button("New game")
    p.wait(p.shows("Start over?"), 20, "the start-over question")
    p.screenshot("ask-new-game")
    p.key("Escape")
    p.wait(
        lambda s: s.get("screen") == "Resume" and p.has_button("New game")(s),
        20,
        "Welcome back again",
    )
    p.click_button("Resume")
    p.wait(on("Table"), 30, "the game resumed")
    p.key("Escape")
    p.click_button("Quit to menu")
    p.wait(on("Menu"), 20, "the menu")
    p.click_button("Play vs computer")
    p.click_button("Deal")
    p.wait(p.shows("Replace your game in progress?"), 20, "the replace question")
    p.screenshot("ask-replace")
    p.click_button("Cancel")
    p.wait(on("Setup"), 20, "the setup screen again")
    p.key("Escape")
    p.wait(p.has_button("Resume game"), 20, "the saved game still on the menu")
    p.click_button("Resume game")
    p.wait(on("Table"), 30, "the game resumed")
    p.key("Escape")
    p.click_button("Resign")
    p.wait(p.shows("Resign this game?"), 20, "the resign question")
    p.click_button("Resign")
    snap = p.wait(on("Menu"), 20, "the menu after resigning")
    assert p.button("Resume game", snap) is None
    assert p.problems() == []


def still_spell(p: Player, seconds: float = 10.0) -> tuple[int, float, dict]:
    """Once the game has gone still (it says so in its status), the frames it draws, the
    cores' worth of CPU it uses over ``seconds`` while nobody touches anything, and what woke
    it (the game names each kind of change that ended a still spell)."""
    p.wait(lambda s: p.still, 30, "a still picture (no frames drawn)")
    frames, start_cpu, start, woken = p.frame, p.cpu_seconds(), time.monotonic(), p.woken
    p.wait(lambda s: time.monotonic() - start >= seconds, seconds + 10, "a still spell")
    cores = (p.cpu_seconds() - start_cpu) / (time.monotonic() - start)
    why = {k: n - woken.get(k, 0) for k, n in p.woken.items() if n > woken.get(k, 0)}
    return p.frame - frames, cores, why


def settled_spell(p: Player, seconds: float = 10.0) -> tuple[int, float, dict]:
    """A still spell as ``still_spell``; if something woke the first one, it is printed and a
    second spell is measured: a screen that keeps redrawing fails both, while one change that
    came just as the picture went still (seen once in a CI run, at the table, 17 frames)
    is reported by name rather than failing the check of a still screen."""
    frames, cores, why = still_spell(p, seconds)
    if frames:
        print(f"a still spell woken {frames} frames by {why}; measuring a second one")
        frames, cores, why = still_spell(p, seconds)
    return frames, cores, why


def answer_time(p: Player, at: tuple[int, int], box: tuple[int, int, int, int]) -> float:
    """Seconds from a click at ``at`` (window pixels) until the window's pixels in ``box``
    change: the still game wakes, answers and draws the answer."""
    before = p.grab(box)
    p.click(*at)
    clicked = time.monotonic()
    while (p.grab(box) == before).all():
        assert time.monotonic() - clicked < 5, "the click was not answered on screen"
    return time.monotonic() - clicked


def test_still_screens_draw_no_frames_and_a_click_wakes_them(player):
    """The menu (once its camera drift settles) and the table waiting for a move draw no
    frame at all while nothing changes, use almost no CPU, and a click still answers at
    once (they used to redraw an unchanged picture 5-6 times a second: a tenth of a core)."""
    p = player()
    p.wait(lambda s: s.get("screen") == "Menu" and not s.get("busy"), 60, "the menu")
    p.move(1270, 700)  # the pointer rests in a corner, as a hand leaves the mouse
    menu_frames, menu_cpu, menu_woke = settled_spell(p)
    play = p.button("Play vs computer")
    x0, y0, x1, y1 = play["box"]
    menu_answer = answer_time(p, ((x0 + x1) // 2, (y0 + y1) // 2), (0, 0, 1280, 720))
    p.wait(on("Setup"), 20, "the setup screen")
    p.click_button("Deal")
    p.wait(my_move, 60, "the table waiting for a move")
    p.move(1270, 300)
    table_frames, table_cpu, table_woke = settled_spell(p)
    table_answer = answer_time(p, tuple(p.status()["pile"]), (0, 0, 1280, 720))  # take it
    p.screenshot("still-table-answers-a-click")
    print(
        f"still 10 s: menu {menu_frames} frames, {menu_cpu:.3f} cores; table {table_frames} "
        f"frames, {table_cpu:.3f} cores; a click answered on screen in {menu_answer:.3f} s "
        f"(menu), {table_answer:.3f} s (table); woken by {menu_woke}, {table_woke}"
    )
    # (the CPU and the answer's time are figures to read, bench/bench_start.py's to watch)
    assert menu_frames == 0 and table_frames == 0, (menu_woke, table_woke)
    assert p.problems() == []


def test_launch_puts_a_picture_up_at_once(player):
    """From the window's first appearance, something is drawn within a second: the title on
    the felt, before the table and the menus are built (the window stayed black for the
    seconds they took on a loaded machine, and the first picture was the menu itself)."""
    p = player(wait=False)
    p.window()
    appeared = time.monotonic()
    while True:
        try:
            pixels = p.grab()
        except Exception:  # created but not mapped yet: nothing to read back
            pixels = None
        if pixels is not None and pixels.mean() > 12:  # not black any more
            break
        assert p.alive(), p.log()[-2000:]
        assert time.monotonic() - appeared < 20, "the window stays black"
    drawn = time.monotonic() - appeared
    write_png(SHOTS / "launch-first-picture.png", pixels)
    r, g, b = (int(v) for v in pixels[8, 8])
    assert g > r + 30 and g > b + 15, f"the first picture is not the splash on the felt: {r, g, b}"
    p.wait(on("Menu"), 60, "the menu")
    menu = time.monotonic() - appeared
    print(f"window to first picture {drawn:.2f} s, to the menu {menu:.2f} s")
    # within a second; on a loaded machine (the suite's other worker), where everything takes
    # longer, still ahead of the menu: a black window until the menu is built fails either
    # way, and the colour check above tells the splash from the menu (loaded, the picture
    # came at 1.19 s with the menu at 2.47 s, and at 1.95 s with the menu at 3.14 s)
    assert drawn < 1.0 or drawn < menu * 0.8, (drawn, menu)


# -- online: a real service node and a real computer player, each its own process ----------
LOOP = "127.0.0.1"
NET_FAST = ["--heartbeat", "0.5", "--dead-after", "8", "--retry", "0.2"]


class Process:
    """A process of ours (a service node, a computer player); its output goes to a file the
    scenario reads lines from. Stopped by its own id."""

    def __init__(self, out: Path, *args: str, prefix: tuple[str, ...] = ()) -> None:
        self.out = out
        env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
        with out.open("w") as f:
            self.proc = subprocess.Popen(
                [*prefix, sys.executable, "-m", *args],
                cwd=ROOT,
                env=env,
                stdout=f,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )

    def line(self, prefix: str, timeout: float = 30) -> str:
        """The rest of the first output line that starts with ``prefix`` (waits for it)."""
        deadline = time.monotonic() + timeout
        while True:
            for text in self.out.read_text(errors="replace").splitlines():
                if text.startswith(prefix):
                    return text[len(prefix) :].strip()
            assert self.proc.poll() is None, f"{self.out.name} ended:\n{self.out.read_text()}"
            assert time.monotonic() < deadline, f"no {prefix!r} from {self.out.name}"
            time.sleep(0.05)  # the poll interval of a wait with a deadline

    def stop(self) -> None:
        end(self.proc, 10)


@pytest.fixture
def service(tmp_path):
    """A ``gin3d-relay`` node on a free loopback port; ``start`` adds more processes of ours
    (all stopped at the end). ``game_args``: the game on loopback, using this node."""
    procs: list[Process] = []

    class Service:
        def start(self, name: str, *args: str) -> Process:
            procs.append(Process(tmp_path / f"{name}.out", *args))
            return procs[-1]

        def match(self, name: str, *args: str) -> Process:
            """A computer player (``gin3d-match``) at this node."""
            return self.start(name, "gin3d.net.cli", *args, "--relay", self.address, *NET_FAST)

    svc = Service()
    node = svc.start("relay", "gin3d.net.relay", "--host", LOOP, "--port", "0")
    svc.address = node.line("gin3d-relay (memory) listening on", 30)
    svc.node = node  # a scenario may stop it and start another on its port
    svc.game_args = ("--listen", LOOP, "--port", "0")
    yield svc
    for proc in reversed(procs):
        proc.stop()


@pytest.fixture
def private_net():
    """A network namespace of the test's own, with only its loopback up: no router answers
    there (a UPnP search fails as on a network without one) and nothing leaves it. Gives the
    command prefix that runs a process inside it."""
    name = f"gin3d-test-{os.getpid()}"
    made = subprocess.run(["ip", "netns", "add", name], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"no private network namespace here: {made.stderr.strip()}")
    prefix = ("ip", "netns", "exec", name)
    try:
        subprocess.run([*prefix, "ip", "link", "set", "lo", "up"], check=True)
        yield prefix
    finally:
        subprocess.run(["ip", "netns", "delete", name], check=False)


def test_online_hosting_where_no_router_answers_fits_the_window(player, tmp_path, private_net):
    """Online -> Host -> Open the table with a service set, on a network where the router
    search fails: the hosting screen says the friend needs only the code, every line fits
    the window, and neither the library's error nor "forward port ... by hand" shows (the
    line ran off both edges and contradicted "no port to forward" above it)."""
    relay = Process(
        tmp_path / "relay.out", "gin3d.net.relay", "--host", LOOP, "--port", "0", prefix=private_net
    )
    try:
        address = relay.line("gin3d-relay (memory) listening on", 30)
        args = ("--relay", address, "--listen", LOOP, "--port", "0")
        p = player(args=args, prefix=private_net, upnp=True)
        open_online(p)
        p.click_button("Host")
        p.wait(on("HostSetup"), 20, "the host's rules")
        p.click_button("Open the table")
        snap = p.wait(p.shows("Join code:"), 60, "the hosting screen's code")
        p.screenshot("online-hosting-no-router")
        text = "\n".join(snap["texts"])
        assert "no port to forward" in text, text
        assert "Miniupnpc" not in text and "by hand" not in text, text
        assert "forward port" not in text and "forward it" not in text, text
        assert snap["cut_off"] == [], snap["cut_off"]
        assert "UPnP" in p.log(), "the router's own words are not in the log"
        assert p.problems() == []
    finally:
        relay.stop()


def free_port() -> int:
    """A loopback port where nobody listens (bound by us for a moment, then let go)."""
    with socket.socket() as s:
        s.bind((LOOP, 0))
        return s.getsockname()[1]


def net_move(snap: dict) -> bool:
    """A move of ours at a network table (not its waiting or dealing lines)."""
    return my_move(snap) and not snap["prompt"].startswith(("Waiting", "Dealing", "The line"))


def net_move_or_result(snap: dict) -> bool:
    """A move of ours at a network table, or the hand's result: the computer players knock
    as soon as they may, so a hand can end after any move of ours."""
    return net_move(snap) or snap.get("screen") in ("HandResult", "GameOver")


def accept_and_play(p: Player, host: str, shot: str, moves: int = 4) -> None:
    """The host's rules come up: Accept, then make ``moves`` moves of the hand."""
    p.wait(lambda s: s.get("screen") == "Offer", 60, f"{host}'s rules to accept")
    p.screenshot(f"{shot}-rules")
    p.click_button("Accept")
    deadline = time.monotonic() + 60
    for _ in range(moves):
        snap = p.wait(
            net_move_or_result, max(1.0, deadline - time.monotonic()), "a move at the table"
        )
        assert any(host in t for t in snap["texts"]), f"{host} is not at the table: {snap}"
        if not net_move(snap):
            break  # the host knocked: its result is on the screen
        play_move(p, snap, knock=False)
    p.wait(
        net_move_or_result,
        max(1.0, deadline - time.monotonic()),
        "the table at rest, our move or the hand's result",
    )
    p.screenshot(f"{shot}-mid-hand")
    assert p.problems() == []


def open_online(p: Player) -> dict:
    p.wait(on("Menu"), 60, "the main menu")
    p.click_button("Online")
    return p.wait(on("Online"), 20, "the Online screen")


def test_hint_and_the_computers_move_leave_the_message_line_with_our_move(player):
    """Ask for a hint (H): its line goes with the move we make. The computer's last move
    ("… discarded the …") goes with our next move, not staying on through our turn."""
    p = player()
    start_single_player(p)
    p.wait(my_move, 60, "our first decision")
    p.key("h")
    snap = p.wait(lambda s: any(t.startswith("Hint:") for t in s["texts"]), 20, "the hint")
    p.screenshot("message-hint")
    play_move(p, snap, knock=False)
    snap = p.wait(lambda s: s["seq"] > snap["seq"] and not s.get("busy"), 20, "our move made")
    assert not any(t.startswith("Hint:") for t in snap["texts"]), snap["texts"]
    deadline = time.monotonic() + 120
    while True:  # to a draw of ours just after the computer discarded
        snap = p.wait(
            lambda s: my_move(s) or s.get("screen") in ("HandResult", "GameOver"),
            max(1.0, deadline - time.monotonic()),
            "our move",
        )
        if snap.get("screen") != "Table":
            pytest.skip("the computer knocked before we saw its discard (rare deal)")
        told = [t for t in snap["texts"] if " discarded the " in t]
        if told and snap["prompt"].startswith("Draw"):
            break
        play_move(p, snap, knock=False)
    p.screenshot("message-their-discard")
    play_move(p, snap, knock=False)  # our draw: the computer's discard is old news now
    snap = p.wait(my_move, 20, "our discard")
    p.screenshot("message-after-our-draw")
    assert not any(t in snap["texts"] for t in told), (told, snap["texts"])
    assert p.problems() == []


def test_online_find_lists_a_public_table_and_join_plays_it(player, service):
    """Online -> Find: the computer player's listed table shows as a row; Join, Accept and
    a few moves at its table."""
    service.match("ann", "host", "--public", "--name", "Ann").line("LISTED", 30)
    p = player(args=("--relay", service.address, *service.game_args))
    open_online(p)
    p.click_button("Find")
    p.wait(
        lambda s: s.get("screen") == "Tables" and p.shows("Ann  -  classic to 100")(s),
        30,
        "Ann's table in the list",
    )
    p.screenshot("online-find-tables")
    p.click_button("Join")
    accept_and_play(p, "Ann", "online-find")


def test_online_find_shows_our_own_open_table_without_a_join(player, service):
    """Open a table from Find: the list shows it as "Your table", with no Join button (the
    list offered us our own table to join). (The service allows one open table an address:
    another table on this machine could not be listed beside it.)"""
    p = player(args=("--relay", service.address, *service.game_args))
    open_online(p)
    p.click_button("Find")
    p.wait(p.shows("No open tables now"), 30, "the empty list")
    p.click_button("Open")
    snap = p.wait(
        lambda s: any(t.startswith("Your table  -  classic to 100") for t in s["texts"]),
        30,
        "our table in the list, as ours",
    )
    p.screenshot("online-find-own-table")
    assert "Join" not in [b["text"] for b in snap["buttons"]], snap["buttons"]
    assert not p.button("Open", snap)["active"], "a second table of ours cannot be opened"
    assert p.problems() == []


def test_online_quick_match_lands_at_the_waiting_table(player, service):
    """Online -> Find -> Quick match Classic: the player is seated at the one waiting table."""
    service.match("bea", "host", "--public", "--name", "Bea").line("LISTED", 30)
    p = player(args=("--relay", service.address, *service.game_args))
    open_online(p)
    p.click_button("Find")
    p.wait(p.shows("Quick match"), 20, "the quick match row")
    p.click_button("Classic")
    accept_and_play(p, "Bea", "online-quick")


def test_online_join_a_friend_by_code_through_the_relay(player, service):
    """A friend hosts through the node (not listed, relay only: no direct address to try)
    and gives the code: typed into the Code field key by key, Join, Accept, a few moves."""
    peer = service.match(
        "cal", "host", "--listen", LOOP, "--port", "0", "--name", "Cal", "--relay-only"
    )
    _, code = peer.line("LISTENING", 30).split()
    p = player(args=("--relay", service.address, *service.game_args))
    snap = open_online(p)
    assert p.shows(f"Relay: {service.address}")(snap)
    p.type_into("code", code)
    p.screenshot("online-code-typed")
    p.click_button("Join")
    accept_and_play(p, "Cal", "online-code")


def test_online_next_hand_is_dealt_during_the_hand_before(player, service):
    """A friend's game by code through the relay, its first hand played to the result, then
    Next hand: the next hand's deal was made (shuffled and proven by both sides) while the
    first was played, so its cards come face up in our hand and the table has nothing left
    to shuffle."""
    peer = service.match(
        "dee", "host", "--listen", LOOP, "--port", "0", "--name", "Dee", "--relay-only"
    )
    _, code = peer.line("LISTENING", 30).split()
    p = player(args=("--relay", service.address, *service.game_args))
    open_online(p)
    p.type_into("code", code)
    p.click_button("Join")
    p.wait(lambda s: s.get("screen") == "Offer", 60, "Dee's rules to accept")
    p.click_button("Accept")
    deadline = time.monotonic() + 240
    while True:
        snap = p.wait(
            net_move_or_result, max(1.0, deadline - time.monotonic()), "the first hand's end"
        )
        if not net_move(snap):
            break
        play_move(p, snap, knock=True)
    p.screenshot("online-next-hand-result")
    assert snap["screen"] == "HandResult", snap["screen"]
    p.click_button("Next hand")
    snap = p.wait(
        lambda s: (
            s.get("screen") == "Table"
            and len(my_cards(s)) >= 10
            and not s.get("prompt", "").startswith("Dealing")
        ),
        30,
        "the second hand's cards in our hand",
    )
    p.screenshot("online-next-hand-dealt")
    assert any("Dee" in t for t in snap["texts"])
    assert p.problems() == []


def test_settings_online_service_tests_and_is_kept(player, service):
    """Settings -> Online service: Test says the node answers, and that a dead address does
    not; saved, a new launch of the game shows the service on the Online screen."""
    p = player(args=service.game_args)
    snap = open_online(p)
    assert p.shows("No service set")(snap)
    p.click_button("Back")
    p.click_button("Settings")
    p.wait(on("Settings"), 20, "the settings")
    p.type_into("service", service.address)
    p.click_button("Test")
    p.wait(p.shows("The service answers"), 20, "the service answering")
    p.screenshot("settings-service-answers")
    dead = f"{LOOP}:{free_port()}"
    p.type_into("service", dead)
    p.click_button("Test")
    said = p.wait(p.shows("No answer"), 20, "no answer from a dead address")
    assert p.shows(f"No answer: {dead}: nobody listens there")(said), said["texts"]
    p.screenshot("settings-service-no-answer")
    p.type_into("service", service.address)
    p.click_button("Save")
    p.wait(on("Menu"), 20, "the menu after saving")
    p.stop()

    p = player(home=p.home, args=service.game_args)
    snap = open_online(p)
    assert p.shows(f"Relay: {service.address}")(snap), snap["texts"]
    p.screenshot("settings-service-kept")
    p.click_button("Find")
    p.wait(p.shows("No open tables now"), 30, "the kept service's (empty) list")
    assert p.problems() == []
