"""The score sheet read from a game: a line per finished hand, agreeing with the game's own
scores at every step, its bonuses once the game is over."""

from __future__ import annotations

from dataclasses import replace

from ship_autoplay import next_action

from gin3d.engine import Game, RuleSet
from gin3d.engine.sheet import score_sheet


def test_every_finished_hand_has_its_line_and_the_totals_agree_with_the_game():
    game = Game(RuleSet(), "sheet-1")
    checked = 0
    while not game.over:
        game.apply(next_action(game))
        sheet = score_sheet(game)
        finished = [h for h in game.hands if h.over]
        assert len(sheet.lines) == len(finished)
        assert [line.hand for line in sheet.lines] == list(range(1, len(finished) + 1))
        if sheet.lines:
            assert list(sheet.lines[-1].totals) == game.score.running()
            checked += 1
        assert list(sheet.boxes) == game.score.boxes()
    for line, hand in zip(sheet.lines, game.hands):
        if line.winner is None:
            assert line.kind == "drawn" and line.points == 0 and line.how == "drawn"
        else:
            assert line.kind == hand.result.kind and line.points == hand.result.points
            assert line.how in ("knock", "undercut", "gin", "Big Gin")
    assert checked and sheet.final == tuple(game.score.breakdown())
    assert sheet.target == game.rules.game_target
    assert score_sheet(Game(RuleSet(), "sheet-2")).lines == ()  # before any hand: empty


def test_hollywood_scoring_keeps_no_pad():
    assert score_sheet(Game(replace(RuleSet(), hollywood=True), "sheet-3")) is None


def test_the_history_keeps_each_games_sheet():
    """A game's sheet rebuilt from its hands in the history (the replay's Tab) is the sheet
    the game had after each hand; a hand whose game is not all there, or kept without its
    game, has none."""
    from gin3d.history import HandRecord, game_sheet

    game = Game(RuleSet(), "sheet-4")
    records = []
    while not game.over and len(records) < 4:
        game.apply(next_action(game))
        if game.hand.over and (not records or records[-1].hand_number != game.hand.hand_number):
            records.append(HandRecord.of(game.hand, ("You", "Walt"), game_id="g-4", you=0))
            assert game_sheet(records[-1], records) == score_sheet(game)
    assert len(records) >= 2
    assert game_sheet(records[1], records[1:]) is None  # its first hand is missing
    assert game_sheet(replace(records[0], game_id=""), records) is None
    other = replace(records[1], names=("You", "Margo"))  # another pair: a game of three
    assert game_sheet(other, [records[0], other]) is None
