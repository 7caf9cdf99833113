"""GameKeeper: the save after every action, statistics and history after every hand."""

from __future__ import annotations

from ship_autoplay import SEATS, next_action, state

from gin3d import stats as stats_mod
from gin3d.engine import Game, RuleSet
from gin3d.history import read_hands
from gin3d.recorder import GameKeeper
from gin3d.saves import load_save


def keeper(tmp_path, game, game_id=""):
    return GameKeeper(
        game,
        SEATS,
        game_id,
        save_file=tmp_path / "save.json",
        stats_file=tmp_path / "stats.json",
        history_file=tmp_path / "hands.jsonl",
    )


def test_a_game_kept_to_its_end(tmp_path):
    game = Game(RuleSet.preset("classic", game_target=60), "kept")
    k = keeper(tmp_path, game)
    assert load_save(tmp_path / "save.json").record.game_id == k.game_id
    while not game.over:
        game.apply(next_action(game))
        assert k.update()
        assert not k.update()  # nothing new: nothing written
        if game.hand.over and not game.over:  # a hand just ended
            assert state(load_save(tmp_path / "save.json").game) == state(game)
            assert len(read_hands(tmp_path / "hands.jsonl")[0]) == len(game.hands)
    assert not (tmp_path / "save.json").exists()
    st, message = stats_mod.load(tmp_path / "stats.json")
    s = st.levels["simple"]
    assert message is None
    assert s.games_played == 1 and s.games_won == (game.winner == 0)
    assert s.hands_played == len(game.hands)
    assert s.hands_won == sum(h.winner == 0 for h in game.hands)
    records, _ = read_hands(tmp_path / "hands.jsonl")
    assert [r.hand_number for r in records] == list(range(len(game.hands)))
    assert {r.game_id for r in records} == {k.game_id}


def test_resume_continues_without_counting_twice(tmp_path):
    game = Game(RuleSet(), "resume")
    k = keeper(tmp_path, game)
    while len(game.hands) < 3 or game.hand.over:
        game.apply(next_action(game))
        k.update()
    # the program stops here; on the next start the save is offered and resumed
    resumed = load_save(tmp_path / "save.json")
    assert resumed.record.game_id == k.game_id
    k2 = keeper(tmp_path, resumed.game, resumed.record.game_id)
    g = resumed.game
    while not g.over:
        g.apply(next_action(g))
        k2.update()
    st, _ = stats_mod.load(tmp_path / "stats.json")
    assert st.levels["simple"].hands_played == len(g.hands)
    assert st.levels["simple"].games_played == 1
    assert len(read_hands(tmp_path / "hands.jsonl")[0]) == len(g.hands)


def test_two_games_with_the_same_seed_are_both_counted(tmp_path):
    for _ in range(2):
        game = Game(RuleSet.preset("classic", game_target=40), 7)
        k = keeper(tmp_path, game)
        while not game.over:
            game.apply(next_action(game))
            k.update()
    st, _ = stats_mod.load(tmp_path / "stats.json")
    assert st.levels["simple"].games_played == 2


def test_a_three_player_game_counts_the_hands_you_played_and_the_game(tmp_path):
    """Under "Three players": every hand the local player played (those sat out are not
    theirs), each kept in the hand history with its two players, and the game once over;
    a second keeper of the same game (a resume) counts nothing twice."""
    from gin3d.engine import ThreePlayerGame
    from gin3d.players import GreedyPlayer
    from gin3d.recorder import THREE_PLAYERS
    from gin3d.saves import Seat

    seats = (
        Seat("human", "Tester"),
        Seat("computer", "Walt", "simple"),
        Seat("computer", "Margo", "hard"),
    )
    game = ThreePlayerGame(RuleSet.preset("classic", game_target=60), "three kept")
    files = dict(
        save_file=tmp_path / "save.json",
        stats_file=tmp_path / "stats.json",
        history_file=tmp_path / "hands.jsonl",
    )
    k = GameKeeper(game, seats, "", **files)
    bot = GreedyPlayer()
    while not game.over:
        legal = game.legal_actions()
        if game.hand.over:
            game.apply(legal[0])
        else:
            game.apply(bot.choose(game.view(game.playing[game.hand.turn])))
        k.update()
    played = [i for i, pair in enumerate(game.seats) if 0 in pair]
    assert 0 < len(played) < len(game.hands)  # some hands sat out
    GameKeeper(game, seats, k.game_id, **files).update()  # resumed: nothing new
    st, _ = stats_mod.load(tmp_path / "stats.json")
    s = st.levels[THREE_PLAYERS]
    assert s.hands_played == len(played) and s.games_played == 1
    assert s.games_won == (game.winner == 0)
    won = [i for i in played if game.hands[i].result and game.seats[i][game.hands[i].winner] == 0]
    assert s.hands_won == len(won)
    records = read_hands(tmp_path / "hands.jsonl")[0]
    names = ("Tester", "Walt", "Margo")
    assert [r.names for r in records] == [tuple(names[p] for p in game.seats[i]) for i in played]
    assert all(r.opponent_level == THREE_PLAYERS for r in records)


def test_a_partnership_game_counts_your_hand_of_every_round_and_your_teams_game(tmp_path):
    """Under "Partnerships": your own hand of each round (at table 0, against the opponent
    you faced), kept in the hand history with its two players, and the game as your team's;
    every move at either table saves the game; a resume counts nothing twice."""
    from gin3d.engine import PartnershipGame
    from gin3d.players import GreedyPlayer
    from gin3d.recorder import PARTNERSHIPS
    from gin3d.saves import Seat

    seats = (
        Seat("human", "Tester"),
        Seat("computer", "Walt", "simple"),
        Seat("computer", "Ann", "beginner"),
        Seat("computer", "Margo", "hard"),
    )
    game = PartnershipGame(RuleSet.preset("classic", partnership_target=60), "teams kept")
    files = dict(
        save_file=tmp_path / "save.json",
        stats_file=tmp_path / "stats.json",
        history_file=tmp_path / "hands.jsonl",
    )
    k = GameKeeper(game, seats, "", **files)
    bot = GreedyPlayer()
    mine, moves = [], 0
    while not game.over:
        if game.round_over:
            mine.append((game.tables[0], game.seats[0]))
            game.apply(None, game.legal_actions(0)[0])
        else:
            table = moves % 2 if not game.tables[moves % 2].over else 1 - moves % 2
            game.apply(table, bot.choose(game.view(game.turn(table))))
            moves += 1
        assert k.update()
        if not game.over:  # the save holds both tables' moves, and rebuilds the game
            assert load_save(files["save_file"]).game.log() == game.log()
    mine.append((game.tables[0], game.seats[0]))
    assert not files["save_file"].exists()  # a finished game leaves nothing to resume
    GameKeeper(game, seats, k.game_id, **files).update()  # resumed: nothing new
    st, _ = stats_mod.load(files["stats_file"])
    s = st.levels[PARTNERSHIPS]
    assert s.hands_played == len(mine) == len(game.results) and s.games_played == 1
    assert s.games_won == (game.winner == 0)
    assert s.hands_won == sum(hand.winner == 0 for hand, _ in mine)
    records = read_hands(files["history_file"])[0]
    names = ("Tester", "Walt", "Ann", "Margo")
    assert [r.names for r in records] == [tuple(names[p] for p in pair) for _, pair in mine]
    assert {r.names[1] for r in records} == {"Walt", "Margo"}  # you face each opponent in turn
    assert all(r.opponent_level == PARTNERSHIPS for r in records)
