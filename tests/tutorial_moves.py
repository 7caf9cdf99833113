"""Moves for driving the tutorial in tests: the step's right move and a plausible wrong one."""

from __future__ import annotations

from gin3d.engine import DrawDiscard, DrawStock, Pass, parse_action
from gin3d.tutorial import TutorialRunner


def right_move(runner: TutorialRunner):
    """The move the step waits for (in the practice hand: the hint's)."""
    if runner.step.practice:
        return runner.hint().action
    expect = runner.step.expect
    if expect.pick:
        return expect.pick[0]
    return parse_action(runner.table.action_text(expect.move))


def wrong_move(runner: TutorialRunner):
    """A move a newcomer might make that is not the one the step wants (every one of them
    can be made with a click, a key or a button on the table)."""
    step = runner.step
    if step.practice:
        return DrawStock()  # the first practice move is the upcard offer: no stock yet
    expect = step.expect
    if expect.pick:
        on_table = [c for row in runner.frame().show for group in row for c in group]
        if runner.table.hand is not None:
            on_table += runner.table.hand.hands[0]
        return next(c for c in on_table if c not in expect.pick)
    right = right_move(runner)
    hand = runner.table.hand
    others = [a for a in hand.legal_actions() if a != right]
    if others:
        return others[0]
    return next(a for a in (DrawDiscard(), DrawStock(), Pass()) if a != right)


def snapshot(runner: TutorialRunner):
    """Everything a wrong move must leave as it was."""
    hand = runner.table.hand
    return (
        runner.index,
        runner.finished,
        runner.frame().text,
        tuple(hand.actions) if hand else (),
        len(hand.events) if hand else 0,
        tuple(runner.table.sheet.hands) if runner.table.sheet else (),
    )
