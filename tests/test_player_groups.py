"""Player's-eye: a whole three-player game and a whole partnership game, from the setup
screen to game over, in a real window at normal speed with real clicks (the two-player
soak's way of playing each hand, ``play_game``): every hand you play, every hand you sit out
or your partner plays, each result's Next hand, and the game-over sheet."""

from __future__ import annotations

import json

import pytest
from player_harness import Player, my_move, on, play_game, play_move, play_until

from gin3d.engine import PartnershipGame
from gin3d.saves import GameRecord

pytestmark = pytest.mark.slow
# whole partnership games: tests/test_player_team_game.py (a file of their own, so one test
# worker plays them while another plays the three-player game here)


def _set_up(p: Player, players: int, targets: tuple[str, ...]) -> dict:
    """From the menu to the setup screen with ``players`` chosen, the target button clicked
    through ``targets`` (its labels in turn, the last one the target wanted), then Deal."""
    p.wait(on("Menu"), 60, "the main menu")
    p.click_button("Play vs computer")
    p.wait(on("Setup"), 20, "the setup screen")
    for count in range(2, players):
        p.click_button(str(count))  # the Players row: count -> count + 1
        p.wait(p.has_button(str(count + 1)), 10, f"{count + 1} players chosen")
    for shown, wanted in zip(targets, targets[1:]):
        p.click_button(shown)
        p.wait(p.has_button(wanted), 10, f"the target {wanted}")
    snap = p.status()
    p.screenshot(f"group-{players}-setup")
    p.click_button("Deal")
    p.wait(lambda s: s.get("screen") == "Table", 30, "the table")
    return snap


def _game_over_texts(p: Player) -> str:
    """The game-over sheet's words once its totals have counted up: the same texts over
    three frames drawn, or the game gone still (the count changes them every frame while it
    runs)."""
    first: dict = {}

    def settled(snap: dict) -> bool:
        if snap.get("screen") != "GameOver" or snap.get("texts") != first.get("texts"):
            first.update(texts=snap.get("texts"), frame=p.frame)  # changed: count again
            return False
        return p.frame >= first["frame"] + 3 or p.still  # still: nothing counts any more

    return " ".join(p.wait(settled, 30, "the totals counted up").get("texts", []))


def test_a_whole_three_player_game_to_50(player):
    """Three players, the game to 50: hands played and sat out, to game over."""
    p = player(args=("--seed", "31"))
    _set_up(p, 3, ("100", "150", "200", "250", "50"))
    play_game(p, 900)
    text = _game_over_texts(p)
    p.screenshot("group-3-game-over")
    for name in ("You", "Walt", "Margo"):
        assert name in text, text  # a column for each player
    assert "hands played" in text, text
    assert p.problems() == []


def settled(snap: dict) -> bool:
    """Your move, with the table showing the game as it stands: it is your turn at your
    table and your hand holds ten cards to draw to, eleven to discard from."""
    hand = snap.get("hand") or []
    return (
        my_move(snap)
        and snap.get("turn") == 0
        and len(hand) == (11 if snap.get("phase") == "discard" else 10)
    )


def test_a_partnership_game_quit_mid_round_comes_back_on_both_tables(player):
    """Four players: three of your moves, quit to the menu mid-round, close the game; the
    next start's Welcome back names your partner, the opponents, the round and the teams'
    score, and Resume puts the round back (your cards and your move, your partner's table
    in the inset) where a team game used to be lost on quitting."""
    p = player(args=("--seed", "33"))
    setup = _set_up(p, 4, ())
    notes = [t for t in setup["texts"] if t.startswith("Teams: ")]
    assert notes and "not saved" not in notes[0], notes  # it is saved (it said "not saved")
    for _ in range(3):
        snap = play_until(p, my_move, 60, "your move")
        play_move(p, snap, knock=False)
    p.wait(settled, 60, "your next move")
    p.screenshot("teams-1-mid-round")
    p.key("Escape")
    p.click_button("Quit to menu")
    p.wait(p.has_button("Resume game"), 20, "the menu with Resume game")
    p.stop()
    # the game as saved (a click of ours may land after the record we read: the save, not a
    # record, says where the game stood when we left)
    saved = [f for f in p.home.rglob("savegame.json")]
    assert len(saved) == 1, saved
    record = GameRecord.from_dict(json.loads(saved[0].read_text()))
    game = record.rebuild()
    assert isinstance(game, PartnershipGame) and game.tables[0].hands[0]
    cards = sorted(str(c) for c in game.tables[0].hands[0])

    p = player(home=p.home)
    snap = p.wait(on("Resume"), 60, "Welcome back")
    assert p.shows("Partners with ")(snap), snap.get("texts")
    assert p.shows("round 1, score your team 0, theirs 0")(snap), snap.get("texts")
    p.screenshot("teams-2-welcome-back")
    p.click_button("Resume")
    snap = p.wait(settled, 30, "your move, resumed")
    assert sorted(c["card"] for c in snap["hand"]) == cards  # your cards as you left them
    notes = " ".join(snap.get("texts", []))
    assert "&" in notes, notes  # the team scores on the table again
    p.screenshot("teams-3-resumed")
    assert p.problems() == []
