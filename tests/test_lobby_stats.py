"""Network matches in the statistics and hand history (``recorder.MatchKeeper``): every hand
and game once, also when a resumed match feeds its earlier hands again or a rematch starts."""

from __future__ import annotations

import pytest

from gin3d import stats as stats_mod
from gin3d.engine import Game, NextHand, RuleSet
from gin3d.history import read_hands
from gin3d.players import GreedyPlayer
from gin3d.recorder import MatchKeeper

RULES = RuleSet.preset("classic", game_target=50)


def play(game: Game, hands: int | None = None) -> Game:
    bot = GreedyPlayer()
    played = 0
    while not game.over:
        h = game.hand
        while not h.over:
            game.apply(bot.choose(game.view(h.turn)))
        played += 1
        if game.over or (hands is not None and played >= hands):
            break
        game.apply(NextHand())
    return game


def test_a_network_game_counts_once(tmp_path):
    files = dict(stats_file=tmp_path / "stats.json", history_file=tmp_path / "hands.jsonl")
    keeper = MatchKeeper("lan", ("Ann", "Bob"), "ab" * 32, **files)
    game = play(Game(RULES, seed=3), hands=1)
    assert keeper.record(game, 0)
    assert not keeper.record(game, 0)  # the same hand again: nothing new
    play(game)
    assert game.over and keeper.record(game, 0)
    # a resumed match feeds the whole game again (a new keeper, as after a restart)
    again = MatchKeeper("lan", ("Ann", "Bob"), "ab" * 32, **files)
    assert not again.record(game, 0)
    st = stats_mod.load(files["stats_file"])[0].levels["lan"]
    assert (st.games_played, st.hands_played) == (1, len(game.hands))
    assert st.games_won == int(game.winner == 0)
    records = read_hands(files["history_file"])[0]
    assert len(records) == len(game.hands)
    assert {(r.names, r.opponent_level) for r in records} == {(("Ann", "Bob"), "lan")}
    # a rematch is game 1 of the same match: counted as a new game
    rematch = play(Game(RULES, seed=4))
    assert again.record(rematch, 1)
    st = stats_mod.load(files["stats_file"])[0].levels["lan"]
    assert st.games_played == 2 and st.hands_played == len(game.hands) + len(rematch.hands)


def test_keeper_refuses_what_is_not_a_network_match(tmp_path):
    with pytest.raises(ValueError):
        MatchKeeper("expert", ("Ann", "Bob"), "ab" * 32, stats_file=tmp_path / "s.json")
    with pytest.raises(ValueError):
        MatchKeeper("lan", ("Ann", "Bob"), "", stats_file=tmp_path / "s.json")


def test_the_table_says_how_a_match_ended():
    from gin3d.net import session as net_session
    from gin3d.scene.control import nettable

    # the scene keeps its own copies of the reasons (it must not load the network stack)
    assert (nettable.SAVED_BYE, nettable.DECLINED) == (net_session.SAVED_BYE, net_session.DECLINED)
    assert "saved the match" in nettable.ending_text("opponent left", net_session.SAVED_BYE)
    assert nettable.ending_text("opponent left", net_session.DECLINED) == (
        "Your opponent declined your rules"
    )
    assert nettable.ending_text("opponent left", "left the table") == (
        "Your opponent left the table"
    )
    assert "cannot be resumed: the two saves hold different rules" in nettable.ending_text(
        "saves differ", "the two saves hold different rules"
    )
