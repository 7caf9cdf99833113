"""Play along: the learner's moves through ``runner.act``, one wrong move per chapter; Back."""

from __future__ import annotations

import pytest
from tutorial_moves import right_move, snapshot, wrong_move

from gin3d.engine import CARDS, Card, RuleSet, parse_action
from gin3d.tutorial import PLAY, WATCH, TutorialRunner, load_chapters

CHAPTERS = load_chapters()


@pytest.mark.parametrize("preset", ["classic", "pagat", "oklahoma"])
@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c.id)
def test_play_along_with_one_wrong_move(chapter, preset):
    runner = TutorialRunner(chapter, RuleSet.preset(preset), PLAY)
    wrong_done = False
    moves = 0
    while not runner.finished:
        failed = [r.claim for r in runner.check() if not r.ok]
        assert not failed, f"{chapter.id} step {runner.index + 1}: {failed}"
        if not runner.waiting:
            runner.next()
            continue
        frame = runner.frame()
        assert frame.prompt and "{" not in frame.prompt
        with pytest.raises(ValueError, match="waiting for your move"):
            runner.next()
        if not wrong_done:
            before = snapshot(runner)
            bad = wrong_move(runner)
            outcome = runner.act(bad)
            assert not outcome.ok, f"{bad} was accepted at {chapter.id} step {runner.index + 1}"
            assert outcome.why and "{" not in outcome.why
            assert not outcome.events
            assert snapshot(runner) == before  # a wrong move changes nothing
            wrong_done = True
        move = right_move(runner)
        outcome = runner.act(move)
        assert outcome.ok, f"{move} refused at {chapter.id} step {runner.index + 1}: {outcome.why}"
        moves += 1
        assert moves < 300
    assert wrong_done, f"chapter {chapter.id} never waited for the learner"


def test_wrong_moves_get_the_lesson_s_own_explanations():
    by_id = {c.id: c for c in CHAPTERS}
    turn = TutorialRunner(by_id["turn"], RuleSet.preset("classic"), PLAY)
    turn.act(parse_action("draw stock"))
    why = turn.act(parse_action("discard 5D")).why
    assert "part of your new run" in why and "points of deadwood instead of 44" in why
    turn.act(parse_action("discard KC"))
    turn.act(parse_action("draw discard"))
    # the no-throw-back rule: the engine refuses, the lesson explains
    why = turn.act(parse_action("discard 8C")).why
    assert "cannot go back" in why and "8\u2663" in why

    knock = TutorialRunner(by_id["knock"], RuleSet.preset("pagat"), PLAY)
    knock.act(parse_action("draw stock"))
    why = knock.act(parse_action("knock 4C")).why
    assert "13 points" in why and "limit of 10" in why

    deck = TutorialRunner(by_id["deck"], RuleSet.preset("classic"), PLAY)
    deck.goto(5)
    assert "counts 10" in deck.act(CARDS[int(Card.parse("KD"))]).why
    assert "counts 5" in deck.act(Card.parse("5C")).why
    assert deck.act(Card.parse("AS")).ok


def test_a_move_at_a_narration_step_is_refused_in_words():
    runner = TutorialRunner(CHAPTERS[1], RuleSet.preset("classic"), PLAY)
    outcome = runner.act(parse_action("pass"))
    assert not outcome.ok and "Next" in outcome.why
    assert runner.table.hand.actions == []


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c.id)
def test_back_and_goto_rebuild_exactly_the_same_table(chapter):
    runner = TutorialRunner(chapter, RuleSet.preset("classic"), WATCH)
    seen = {}
    while not runner.finished:
        seen.setdefault(runner.index, snapshot(runner))
        runner.next()
    for index in sorted(seen):
        runner.goto(index)
        assert snapshot(runner) == seen[index]
        if index:
            runner.back()
            assert snapshot(runner) == seen[index - 1]


def test_the_first_step_animates_the_deal():
    runner = TutorialRunner(CHAPTERS[1], RuleSet.preset("classic"))
    names = [type(e).__name__ for e in runner.start_events()]
    assert names[0] == "HandStarted" and names.count("CardDealt") == 20
    assert names[21] == "UpcardTurned"


def test_back_after_the_practice_hand_shows_the_hand_you_played():
    practice = next(c for c in CHAPTERS if c.id == "practice")
    runner = TutorialRunner(practice, RuleSet.preset("classic"), PLAY)
    runner.next()
    first = True
    while runner.step.practice:
        view = runner.table.game.view(0)
        move = runner.hint().action
        if first:  # not what the hint says, so the hand differs from a hint-played one
            move = next(a for a in view.legal if a != move)
            first = False
        assert runner.act(move).ok
    result = runner.frame().text
    actions = list(runner.table.game.actions)
    runner.next()
    runner.back()
    assert runner.index == 2 and list(runner.table.game.actions) == actions
    assert runner.frame().text == result


def _practice_runner(seat_driven: bool) -> TutorialRunner:
    from gin3d.players import computer_player

    practice = next(c for c in CHAPTERS if c.id == "practice")
    player = computer_player("beginner", seed=5)
    runner = TutorialRunner(
        practice,
        RuleSet.preset("classic"),
        PLAY,
        seat_driven=seat_driven,
        practice_player=player.choose,
    )
    while not runner.waiting:
        runner.next()
    return runner


def test_the_practice_hand_on_a_game_driver_plays_the_same_moves_as_inside_act():
    """Seat-driven, the opponent answers as a ScriptSeat of a GameDriver and the learner's
    moves go through the driver: the same hand, to the same next step, as ``act`` playing
    the opponent itself."""
    from gin3d.driver import GameDriver, LocalSeat, ScriptSeat

    inside = _practice_runner(False)
    while inside.step.practice and not inside.finished:
        assert inside.act(right_move(inside)).ok
    driven = _practice_runner(True)
    learner = LocalSeat()
    game = driven.table.game
    driver = GameDriver(game, [learner, ScriptSeat(driven.opponent_move)])
    driver.on_applied.append(lambda action, events: driven.practice_moved())
    for _ in range(200):
        if not driven.step.practice or driven.finished:
            break
        if driver.pump(0.0) == "waiting" and game.turn == 0:
            learner.give(right_move(driven))
    assert game.actions == inside.table.game.actions
    assert (driven.index, driven.finished) == (inside.index, inside.finished)
    assert not driven.step.practice or driven.finished
