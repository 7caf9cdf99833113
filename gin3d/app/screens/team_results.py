"""What the result screens say of a partnership round and game: both hands, the round by
the difference rule, the team totals (``engine.groups.round_score``'s arithmetic)."""

from __future__ import annotations

from ...engine.groups import team_of


def our_team(controller) -> int:
    """The local player's team (you are player 0 in a local game; at a network table you
    may be any player)."""
    return team_of(getattr(controller, "me", 0))


def team_labels(controller) -> tuple[str, str]:
    """Each team's players by team (team 0 first), as the game's totals and results count
    them; the controller's ``team_names`` put yours first, as the pad shows them."""
    mine, theirs = controller.team_names
    return (theirs, mine) if our_team(controller) == 1 else (mine, theirs)


def hand_line(names, players: tuple[int, int], hand) -> str:
    """One table's hand: who played whom and how it ended."""
    head = f"{names[players[0]]} vs {names[players[1]]}"
    if hand.result is None or hand.winner is None:
        return f"{head}: a drawn hand, nobody scores"
    won = names[players[hand.winner]]
    return f"{head}: {won} won - {hand.result.breakdown()}"


def round_lines(controller) -> tuple[str, list[str]]:
    """The round's title and lines: each hand, then the round's score by the difference
    rule (yours first, then your partner's)."""
    game = controller.game.game
    names = controller.player_names
    teams = team_labels(controller)
    seats = game.seats
    lines = [hand_line(names, seats[t], game.tables[t]) for t in (0, 1)]
    team, points = game.results[-1] if game.results else (None, 0)
    per_team = [0, 0]
    for t in (0, 1):
        hand = game.tables[t]
        if hand.result is not None and hand.winner is not None:
            per_team[team_of(seats[t][hand.winner])] += hand.result.points
    if team is None:
        title = "The round scores nothing"
    else:
        title = f"{teams[team]} score {points}"
    lines.append(
        f"Round: {teams[0]} {per_team[0]} - {teams[1]} {per_team[1]}, the difference goes to"
        f" the team ahead"
    )
    return title, lines


def box_label(boxes: list[int], paid: bool) -> str:
    """The sheet's boxes row: the hands each won, and whether the rules pay a bonus for them
    (a bare "0" under "Boxes (3/1 won)" read as a mistake)."""
    won = " / ".join(map(str, boxes))
    return f"Boxes ({won} won)" if paid else f"Boxes ({won} won, no bonus)"


def team_sheet(game) -> list[tuple[str, list[int]]]:
    """The rows of a finished partnership game's sheet, a value per team."""
    rules = game.rules
    boxes = game.boxes()
    bonus = [
        rules.game_bonus if rules.partnership_game_bonus and t == game.winner else 0 for t in (0, 1)
    ]
    box = [rules.box_bonus * b if rules.partnership_box_bonus else 0 for b in boxes]
    return [
        ("Round points", game.running()),
        ("Game bonus" if rules.partnership_game_bonus else "Game bonus (off)", bonus),
        (box_label(boxes, rules.partnership_box_bonus), box),
        ("Total", game.totals()),
    ]
