"""Resuming a saved network match: rebuild every finished hand with the engine, agree on
where both saves stand, and go on from the first hand both have not finished.

Only *verified* hands are resumed (their decks are open, so the engine replays them exactly);
an unfinished hand is dealt again with a fresh fair deal, since its secrets died with it.
"""

from __future__ import annotations

from gin3d.engine import Game, NextHand, RuleSet, parse_action

from .movelog import MoveLog


def build_game(rules: RuleSet, seed: str, first_dealer: int, hands: list[dict]) -> Game | None:
    """A Game replayed from saved hands (deck + action texts); None when no hand finished."""
    if not hands:
        return None
    decks = [list(h["deck"]) for h in hands]
    game = Game(rules, seed, first_dealer=first_dealer, decks=decks)
    for i, h in enumerate(hands):
        if i:
            game.apply(NextHand())
        for text in h["actions"]:
            game.apply(parse_action(text))
        if not game.hand.over:
            raise ValueError(f"saved hand {i} of a game is not finished")
    return game


def load_match(data: dict, match_id: str):
    """(rules, finished games, seeds, current game number, resume point, move log)."""
    rules = RuleSet.from_dict(data["rules"])
    saved_games = data["games"]
    if not saved_games:
        raise ValueError("the save holds no finished hand: start a new match instead")
    games, seeds = [], []
    for g in saved_games[:-1]:
        game = build_game(rules, g["seed"], g["first_dealer"], g["hands"])
        if game is None or not game.over:
            raise ValueError("an earlier game in the save is not finished")
        games.append(game)
        seeds.append(g["seed"])
    current = saved_games[-1]
    seeds.append(current["seed"])
    number = len(saved_games) - 1
    finished = {(number, i) for i in range(len(current["hands"]))}
    log = MoveLog(match_id)
    heads = []
    for entry in data["moves"]:
        if entry["game"] < number or (entry["game"], entry["hand"]) in finished:
            if entry["game"] == number and not heads:
                heads.append(log.head)  # the head when this game started
            log.append(entry["game"], entry["hand"], entry["seat"], entry["action"])
            if log.head != entry["hash"]:
                raise ValueError("the saved move log's hash chain is broken")
    if not heads:
        heads.append(log.head)
    # the head after each finished hand of the current game
    boundary = MoveLog(match_id)
    hand_heads = []
    for entry in log.entries:
        boundary.append(entry["game"], entry["hand"], entry["seat"], entry["action"])
        hand_heads.append((entry["game"], entry["hand"], boundary.head))
    for i in range(len(current["hands"])):
        last = [h for g, n, h in hand_heads if g == number and n == i]
        if not last:
            raise ValueError(f"the save has no moves for hand {i}")
        heads.append(last[-1])
    game = build_game(rules, current["seed"], current["first_dealer"], current["hands"])
    resume = {"seed": current["seed"], "first_dealer": current["first_dealer"],
              "hands": current["hands"], "heads": heads, "game": game}
    return rules, games, seeds, number, resume, log


def truncate(session, resume: dict, k: int) -> None:
    """Keep the first ``k`` finished hands of the current game (the other save has no more)."""
    if k == len(resume["hands"]):
        return
    number = session._game_no
    resume["hands"] = resume["hands"][:k]
    resume["heads"] = resume["heads"][:k + 1]
    resume["game"] = build_game(session.rules, resume["seed"], resume["first_dealer"],
                                resume["hands"])
    log = MoveLog(session.match_id)
    for e in session.log.entries:
        if e["game"] < number or e["hand"] < k:
            log.append(e["game"], e["hand"], e["seat"], e["action"])
    session.log = log


def snapshot(session) -> dict:
    """A session's match so far: every verified hand (deck + actions), the move log, the
    chat and the unfinished hand as that seat saw it. ``MatchSession.load`` resumes it."""
    from .session import SAVE_FORMAT

    games = list(session.games)
    if session.game is not None and session.game not in games:
        games.append(session.game)
    return {
        "format": SAVE_FORMAT, "match": session.match_id, "seat": session.seat,
        "rules": session.rules.to_dict() if session.rules else None,
        "games": [{"seed": seed, "first_dealer": g.hands[0].dealer, "over": g.over,
                   "totals": g.totals(),
                   "hands": [{"deck": [int(c) for c in h.deck],
                              "actions": [str(a) for a in h.actions]} for h in g.hands]}
                  for seed, g in zip(session._seeds, games)],
        "game_number": session._game_no,
        "moves": session.log.entries,
        "current_hand": None if session.tracker is None or session.tracker.over else {
            "number": session.tracker.hand_number, "dealer": session.tracker.dealer,
            "actions": [str(a) for a in session.tracker.actions],
            "my_cards": [str(c) for c in session.tracker.hand.hands[session.seat]],
        },
        "chat": session.chat,
        **session.save_extra,
    }
