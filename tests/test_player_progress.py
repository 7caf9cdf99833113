"""Player's-eye scenarios of the player's progress: a tutorial chapter watched to its end is
ticked on the chapter list and still ticked after a restart; finishing the tutorial's last
chapter earns an achievement, announced by a note that goes again (and leaves the window
still), and listed on the Achievements screen."""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone

import pytest
from player_harness import Player, on, play_until

from gin3d.achievements import ACHIEVEMENTS
from gin3d.stats import GameEntry, Stats

pytestmark = pytest.mark.slow


def watch_chapter_one_to_its_end(p: Player) -> dict:
    """From the main menu: Tutorial, chapter 1 in Watch mode, Next clicked to its end."""
    p.click_button("Tutorial")
    p.wait(on("Tutorial"), 20, "the chapter list")
    p.click_button("1.")
    snap = p.wait(p.shows("Step 1 of"), 30, "chapter 1's first step")
    while not p.shows("Chapter complete!")(snap):
        step = next(int(m.group(1)) for t in snap["texts"] if (m := re.search(r"Step (\d+)", t)))
        p.click_button("Next")
        snap = p.wait(
            lambda s, step=step: (
                (p.shows(f"Step {step + 1} of")(s) or p.shows("Chapter complete!")(s))
                and not s.get("busy")
            ),
            30,
            f"step {step + 1}",
        )
    return snap


def test_a_chapter_watched_to_its_end_is_ticked_and_stays_ticked(player, tmp_path):
    home = tmp_path / "home"
    p = player(home=home)
    p.wait(on("Menu"), 60, "the main menu")
    watch_chapter_one_to_its_end(p)
    p.key("Escape")
    snap = p.wait(p.shows("chapters done"), 20, "the chapter list again")
    assert p.shows("1 of 17 chapters done")(snap), snap["texts"]
    assert p.button("\u2713 1.", snap) is not None
    assert p.button("2.", snap)["text"].startswith("2.")  # not watched: no tick
    p.screenshot("progress-1-chapter-ticked")
    p.stop()
    again = player(home=home)
    again.wait(on("Menu"), 60, "the main menu after a restart")
    again.click_button("Tutorial")
    snap = again.wait(again.shows("chapters done"), 20, "the chapter list after a restart")
    assert again.shows("1 of 17 chapters done")(snap), snap["texts"]
    assert again.button("\u2713 1.", snap) is not None
    again.screenshot("progress-2-ticked-after-restart")
    assert again.problems() == []


def test_finishing_the_tutorial_announces_an_achievement_listed_after(player, tmp_path):
    home = tmp_path / "home"
    data = home / ".local" / "share" / "gin3d"
    data.mkdir(parents=True)
    (data / "progress.json").write_text(
        json.dumps(
            {
                "format": "gin3d-progress",
                "version": 1,
                "chapters_done": list(range(2, 18)),  # every chapter but the first
                "earned": {},
                "caught_up": True,
            }
        )
    )
    p = player(home=home)
    p.wait(on("Menu"), 60, "the main menu")
    p.click_button("Achievements")
    snap = p.wait(on("Achievements"), 20, "the Achievements screen")
    assert p.shows(f"0 of {len(ACHIEVEMENTS)} earned")(snap), snap["texts"]
    p.key("Escape")
    p.wait(on("Menu"), 20, "the main menu")
    watch_chapter_one_to_its_end(p)
    snap = p.wait(p.shows("Achievement earned"), 10, "the achievement's note")
    assert p.shows("Graduate")(snap) and p.shows("Finish every chapter of the tutorial.")(snap)
    snap = p.wait(lambda s: not s["cut_off"], 5, "the note slid in whole")
    # the note covers no button (the narration's Back, Next, Chapters stay clear) and is whole
    assert snap["crowded"] == [] and snap["cut_off"] == [], (snap["crowded"], snap["cut_off"])
    assert p.shows("Achievement earned")(snap)
    p.screenshot("progress-3-achievement-note")
    # on the chapter list, a still screen: while the note stays, nothing is drawn (its stay is
    # a timer, not an animation); it goes by itself and the window is still again after
    p.key("Escape")
    snap = p.wait(
        lambda s: p.still and p.shows("Achievement earned")(s),
        8,
        "the chapter list still, the note on it",
    )
    assert snap["crowded"] == [] and snap["cut_off"] == [], (snap["crowded"], snap["cut_off"])
    assert p.shows("17 of 17 chapters done")(snap), snap["texts"]
    p.screenshot("progress-4-note-over-the-chapter-list")
    p.wait(lambda s: not p.shows("Achievement earned")(s), 15, "the note gone")
    p.wait(lambda s: p.still, 10, "a still window once the note is gone")
    p.click_button("Main menu")
    p.wait(on("Menu"), 20, "the main menu")
    p.click_button("Achievements")
    snap = p.wait(on("Achievements"), 20, "the Achievements screen")
    today = datetime.now(timezone.utc).date().isoformat()
    assert p.shows(f"1 of {len(ACHIEVEMENTS)} earned")(snap), snap["texts"]
    assert p.shows(f"Earned {today}")(snap), snap["texts"]
    assert snap["crowded"] == [] and snap["cut_off"] == [], (snap["crowded"], snap["cut_off"])
    p.screenshot("progress-5-achievements")
    assert p.problems() == []


def test_statistics_charts_by_opponent_and_rules_and_the_win_rate(player, tmp_path):
    """A player with a record of games: Statistics, Charts: bars by opponent and by rules and
    the win-rate line, all inside the panel, no text over another or a button."""
    home = tmp_path / "home"
    st = Stats()
    for level, played, won in (("beginner", 3, 3), ("simple", 6, 4), ("hard", 5, 2)):
        st.level(level).games_played, st.level(level).games_won = played, won
    st.level("expert").games_played = 2
    st.level("three").games_played, st.level("three").games_won = 2, 1
    results = [True, True, False, True, False, False, True, True, True, False, True, True] * 2
    rules = ("classic", "classic", "pagat", "oklahoma")
    for i, won in enumerate(results):
        st.games.append(
            GameEntry(f"2026-11-{i + 1:02d}T20:00:00+00:00", "simple", rules[i % 4], won, 100, 40)
        )
    st.save(home / ".local" / "share" / "gin3d" / "stats.json")
    p = player(home=home)
    p.wait(on("Menu"), 60, "the main menu")
    p.click_button("Statistics")
    p.wait(on("Stats"), 20, "the statistics")
    p.click_button("Charts")
    snap = p.wait(on("Charts"), 20, "the charts")
    for text in ("Rosie", "Walt", "Margo", "Classic", "Pagat", "Oklahoma", "3 won, 0 lost"):
        assert p.shows(text)(snap), (text, snap["texts"])
    assert p.shows(f"Win rate over your last {len(results)} games")(snap)
    assert snap["crowded"] == [] and snap["cut_off"] == [], (snap["crowded"], snap["cut_off"])
    p.screenshot("progress-6-charts")
    p.key("Escape")
    p.wait(on("Stats"), 20, "the statistics again")
    p.click_button("Achievements")
    snap = p.wait(on("Achievements"), 20, "the achievements from the statistics")
    # what the records already held was counted at the start, quietly: the opponents beaten
    assert p.shows("Beat Rosie")(snap) and p.shows("Earned")(snap), snap["texts"]
    assert not p.shows("Achievement earned")(snap)
    p.click_button("Back")
    p.wait(on("Stats"), 20, "the statistics again")
    assert p.problems() == []


def test_a_gin_made_by_hand_is_announced_at_the_result_and_listed(player, tmp_path):
    """A saved game against Walt where one draw gives you gin: resumed, the stock clicked,
    Gin! pressed. The hand's result comes with the note "Gin!" (clear of the result and its
    button, of the cards), and the Achievements screen lists it earned."""
    from ship_hands import GIN

    from gin3d.engine import Game, RuleSet
    from gin3d.saves import Seat, write_save

    home = tmp_path / "home"
    game = Game(RuleSet(), "gin-fixture", first_dealer=1, decks=[GIN[0]])
    for action in GIN[1][:2]:  # both pass the upcard: your turn to draw
        game.apply(action)
    seats = (Seat("human", "Player"), Seat("computer", "Walt", "simple"))
    write_save(game, seats, home / ".local" / "share" / "gin3d" / "savegame.json", "gin-fixture")
    p = player(home=home)
    p.wait(on("Resume"), 60, "Welcome back")
    p.click_button("Resume")
    snap = play_until(p, on("HandResult"), 60, "the gin's result")
    snap = p.wait(p.shows("Achievement earned"), 10, "the achievement's note")
    assert p.shows("won the hand")(snap), snap["texts"]
    assert p.shows("Gin!")(snap) and p.shows("Win a hand by going gin.")(snap)
    snap = p.wait(lambda s: not s["cut_off"], 5, "the note slid in whole")
    assert snap["crowded"] == [], snap["crowded"]
    p.screenshot("progress-7-gin-note-at-the-result")
    p.key("Escape")
    p.click_button("Quit to menu")
    p.wait(on("Menu"), 20, "the menu")
    p.click_button("Achievements")
    snap = p.wait(on("Achievements"), 20, "the Achievements screen")
    assert p.shows(f"1 of {len(ACHIEVEMENTS)} earned")(snap), snap["texts"]
    assert p.problems() == []
