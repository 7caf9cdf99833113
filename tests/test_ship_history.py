"""Hand history and replay: a recorded hand replays to the same final state, forwards and back."""

from __future__ import annotations

import json

import pytest
from ship_autoplay import play
from ship_hands import UNDERCUT, drawn_hand, play_script

from gin3d.engine import Game, RuleSet
from gin3d.history import HandRecord, Replay, append_hand, read_hands


def finished_hands(seed="hist", preset="classic"):
    game = play(Game(RuleSet.preset(preset), seed))
    return game.hands


def snapshot(hand):
    return (
        list(map(list, hand.hands)),
        list(hand.stock),
        list(hand.pile),
        hand.phase,
        hand.turn,
        hand.table_melds,
        hand.result,
        hand.winner,
        list(hand.events),
    )


def test_replay_of_a_recorded_hand_reaches_the_same_final_state(tmp_path):
    hands = finished_hands()
    path = tmp_path / "hands.jsonl"
    for h in hands:
        append_hand(
            HandRecord.of(h, names=("Ann", "Walt"), game_id="g", opponent_level="simple"), path
        )
    records, skipped = read_hands(path)
    assert skipped == 0 and len(records) == len(hands)
    for record, original in zip(records, hands):
        replay = Replay(record)
        replay.seek(replay.length)
        assert replay.at_end
        assert snapshot(replay.hand) == snapshot(original)
        assert record.winner == original.winner
        assert record.points == (original.result.points if original.result else 0)


def test_back_is_exact_at_every_step():
    record = HandRecord.of(finished_hands("steps")[0])
    replay = Replay(record)
    forward_states = [snapshot(replay.hand)]
    while not replay.at_end:
        assert replay.forward()  # every action causes at least one event
        forward_states.append(snapshot(replay.hand))
    assert replay.forward() == []
    for step in range(replay.length - 1, -1, -1):
        replay.back()
        assert replay.step == step
        assert snapshot(replay.hand) == forward_states[step]
    assert replay.at_start
    replay.back()
    assert replay.step == 0
    with pytest.raises(ValueError):
        replay.seek(replay.length + 1)


def captions_to_the_end(replay: Replay) -> list[str]:
    """Each step's caption, stepping the replay from where it is to its end."""
    captions = []
    while not replay.at_end:
        replay.forward()
        captions.append(replay.frame().caption)
    return captions


def test_frames_show_both_hands_and_captions():
    hand = play_script(UNDERCUT, dealer=1)
    replay = Replay(HandRecord.of(hand, names=("Ann", "Walt")))
    first = replay.frame()
    assert first.step == 0 and len(first.hands[0]) == len(first.hands[1]) == 10
    assert "Walt deals" in first.caption and "10♠" in first.caption
    captions = captions_to_the_end(replay)
    assert captions[0] == "Ann passes."
    assert captions[2] == "Ann draws 2♥ from the stock."
    assert captions[5] == "Walt knocks. Deadwood 6."
    assert captions[-1] == "Ann finishes laying off. Undercut: 5 + 25 to Ann."
    last = replay.frame()
    assert last.phase == "over" and last.turn == -1 and len(last.table_melds) == 3
    assert HandRecord.of(hand, names=("Ann", "Walt")).summary() == "Hand 1: Ann won 30 (undercut)"
    assert HandRecord.of(drawn_hand()).summary() == "Hand 1: drawn"


def test_torn_or_bad_lines_are_skipped(tmp_path):
    path = tmp_path / "hands.jsonl"
    hands = finished_hands("torn", "pagat")[:2]
    append_hand(HandRecord.of(hands[0]), path)
    bad = HandRecord.of(hands[1]).to_dict()
    bad["actions"] = bad["actions"][:3] + ["knock AS"]
    with open(path, "a") as f:
        f.write(json.dumps(bad) + "\n")
        f.write('{"format": "gin3d-hand", "version": 1, "rules": {}, "dea')  # torn by a crash
    records, skipped = read_hands(path)
    assert len(records) == 1 and skipped == 2
    assert records[0].rules.name == "pagat"
    assert read_hands(tmp_path / "none.jsonl") == ([], 0)


def test_unfinished_hand_is_not_kept():
    with pytest.raises(ValueError, match="finished"):
        HandRecord.of(Game().hand)


def test_the_local_player_is_you_in_the_list_and_the_replay():
    """The history says "You" for the local player's seat, whatever their name in the
    settings ("Player" by default), with the verbs that go with it; a partnership round names
    both teams."""
    hand = play_script(UNDERCUT, dealer=1)
    record = HandRecord.of(hand, names=("Player", "Walt"), opponent_level="simple", you=0)
    assert record.summary() == "Hand 1: You won 30 (undercut)"
    assert record.versus() == "You vs Walt"
    replay = Replay(record)
    captions = captions_to_the_end(replay)
    assert captions[0] == "You pass."
    assert captions[2] == "You draw 2♥ from the stock."
    assert captions[5] == "Walt knocks. Deadwood 6."
    assert captions[-1] == "You finish laying off. Undercut: 5 + 25 to you."
    back = HandRecord.from_dict(json.loads(json.dumps(record.to_dict())))
    assert back.you == 0 and back.summary() == record.summary()
    team = HandRecord.of(
        hand, names=("Player", "Walt"), opponent_level="teams", you=0, partners=("Rosie", "Margo")
    )
    assert HandRecord.from_dict(team.to_dict()).versus() == "You & Rosie vs Walt & Margo"


def test_older_records_say_you_where_they_can_and_bad_seats_are_refused():
    """Records kept before the local seat was written: a game against the computer had the
    person at seat 0; a network hand's seat is not known, so its names stay as kept."""
    hand = play_script(UNDERCUT, dealer=1)
    old = HandRecord.of(hand, names=("Player", "Walt"), opponent_level="simple").to_dict()
    assert "you" not in old
    assert HandRecord.from_dict(old).summary() == "Hand 1: You won 30 (undercut)"
    net = HandRecord.of(hand, names=("Ann", "Bob"), opponent_level="online").to_dict()
    assert HandRecord.from_dict(net).summary() == "Hand 1: Ann won 30 (undercut)"
    for bad in ({"you": 2}, {"you": "0"}, {"partners": ["Rosie"]}):
        with pytest.raises(ValueError):
            HandRecord.from_dict({**old, **bad})
