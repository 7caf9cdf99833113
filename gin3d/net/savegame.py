"""Resuming a saved network match: rebuild every finished hand with the engine, agree on
where both saves stand, and go on from the first hand both have not finished.

Finished hands are rebuilt from their open decks. The hand in progress is kept as this seat
played it (``hand_state``): its deal secrets and every message this seat sent in it. On
resume each side sends those messages again and replays the hand with the engine and the
proofs, taking its own saved steps and moves instead of computing or asking for them, so the
same hand goes on from where either side had got to (see ``MatchSession._play_game``).
"""

from __future__ import annotations

import hashlib

from gin3d.engine import Game, LogError, NextHand, RuleSet

from .constants import HAND_MESSAGES  # what a hand's replay is made of
from .fairdeal import DealerSecrets
from .group import DealError, check_permutation, check_scalar
from .movelog import MoveLog
from .protocol import ProtocolError, key_hex, key_int, validate


def build_game(rules: RuleSet, seed: str, first_dealer: int, hands: list[dict]) -> Game | None:
    """A Game replayed from saved hands (deck + action texts); None when no hand finished."""
    if not hands:
        return None
    decks = [list(h["deck"]) for h in hands]
    log: list = []
    for i, h in enumerate(hands):
        if i:
            log.append(NextHand())
        log.extend(h["actions"])
    try:
        game = Game.from_log(rules, seed, first_dealer, decks, log)
    except LogError as e:
        if isinstance(e.action, NextHand):  # one put in above: the hand before it
            before = Game.from_log(rules, seed, first_dealer, decks, log[: e.step])
            if not before.hand.over:
                n = log[: e.step].count(NextHand())
                raise ValueError(f"saved hand {n} of a game is not finished") from None
        raise ValueError(e.reason) from None
    if not game.hand.over:
        raise ValueError(f"saved hand {len(hands) - 1} of a game is not finished")
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
    resume = {
        "seed": current["seed"],
        "first_dealer": current["first_dealer"],
        "hands": current["hands"],
        "heads": heads,
        "game": game,
        "hand": load_hand_state(data.get("hand_state"), number, len(current["hands"]))
        if game is not None and not game.over
        else None,
    }
    return rules, games, seeds, number, resume, log


def step_digest(cards, commits) -> str:
    """One deal step as both peers hold it (its deck and commitments, not its proof)."""
    h = hashlib.sha256(b"gin3d-step|")
    for x in (*cards, *commits):
        h.update(x)
    return h.hexdigest()


def hand_state(session) -> dict | None:
    """The hand in progress as this seat played it, or None (no hand under way, or none of
    its secrets made yet). It holds this seat's deal secrets: it goes only into the save."""
    t = session.tracker
    if t is None or session._tracker_game != session._game_no:
        return None
    n = t.hand_number
    if session.game is not None and len(session.game.hands) > n:
        return None  # verified: it is in the save's hands
    context = session._deal_context(n)
    deal = session.deal if session.deal is not None and session.deal.context == context else None
    replay = session._replay  # resumed, and its deal not yet begun again
    mine = (
        deal.mine
        if deal is not None
        else (replay["secrets"] if replay is not None and replay["number"] == n else None)
    )
    if mine is None:
        return None
    sent = [
        {k: v for k, v in m.items() if k != "seq"}
        for m in session.outbox[session._game_out_start :]
        if m["t"] in HAND_MESSAGES and m["hand"] == n
    ]
    opened = bool(deal is not None and deal.peer_keys) or any(
        m["t"] in ("keys", "reveal") or "keys" in m for m in sent
    )
    wire = mine.to_wire()
    return {
        "game": session._game_no,
        "number": n,
        "dealer": t.dealer,
        "secrets": {
            "master": key_hex(wire["master"]),
            "perm": wire["perm"],
            "keys": [key_hex(k) for k in wire["keys"]],
            "answered": {str(step): nonce for step, nonce in mine.answered.items()},
        },
        "steps": [step_digest(d, c) for d, c in zip(deal.decks, deal.commits)]
        if deal is not None
        else (replay or {}).get("steps", []),
        "opened": opened,
        "sent": sent,
    }


def _answered(raw) -> dict[int, str]:
    """The challenges our saved secrets already answered, by shuffle step (ValueError)."""
    if not isinstance(raw, dict):
        raise ValueError("answered challenges")
    out = {}
    for step, nonce in raw.items():
        if step not in ("1", "2") or not isinstance(nonce, str) or len(nonce) != 64:
            raise ValueError("an answered challenge")
        bytes.fromhex(nonce)
        out[int(step)] = nonce
    return out


def load_hand_state(state, game_number: int, finished: int) -> dict | None:
    """A saved hand in progress, checked (ValueError if it is malformed); None when the save
    has none for the hand that follows its finished ones."""
    if state is None:
        return None
    if not isinstance(state, dict):
        raise ValueError("the saved hand in progress is malformed")
    if state.get("game") != game_number or state.get("number") != finished:
        return None  # from another point of the match than the finished hands
    try:
        raw = state["secrets"]
        secrets = DealerSecrets(
            key_int(raw["master"]),
            list(raw["perm"]),
            [key_int(k) for k in raw["keys"]],
            _answered(raw.get("answered", {})),
        )
        check_scalar(secrets.master)
        check_permutation(secrets.perm)
        if len(secrets.slot_keys) != 52:
            raise ValueError("52 slot keys")
        for k in secrets.slot_keys:
            check_scalar(k)
        sent = list(state["sent"])
        for m in sent:
            if (
                not isinstance(m, dict)
                or m.get("t") not in HAND_MESSAGES
                or (m.get("hand") != finished)
            ):
                raise ValueError("a saved message is not one of this hand's")
            validate({**m, "seq": 1})
        steps, dealer, opened = state["steps"], state["dealer"], state["opened"]
        if (
            not isinstance(steps, list)
            or len(steps) > 4
            or dealer not in (0, 1)
            or not isinstance(opened, bool)
        ):
            raise ValueError("bad fields")
        for h in steps:
            if not isinstance(h, str) or len(h) != 64:
                raise ValueError("bad step digest")
            int(h, 16)
    except (KeyError, TypeError, ValueError, DealError, ProtocolError) as exc:
        raise ValueError(f"the saved hand in progress is malformed: {exc}") from None
    return {
        "number": finished,
        "dealer": dealer,
        "secrets": secrets,
        "sent": sent,
        "steps": steps,
        "opened": opened,
    }


def truncate(session, resume: dict, k: int) -> None:
    """Keep the first ``k`` finished hands of the current game (the other save has no more)."""
    if k == len(resume["hands"]):
        return
    number = session._game_no
    resume["hands"] = resume["hands"][:k]
    resume["heads"] = resume["heads"][: k + 1]
    resume["game"] = build_game(
        session.rules, resume["seed"], resume["first_dealer"], resume["hands"]
    )
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
        "format": SAVE_FORMAT,
        "match": session.match_id,
        "seat": session.seat,
        "rules": session.rules.to_dict() if session.rules else None,
        "games": [
            {
                "seed": seed,
                "first_dealer": g.hands[0].dealer,
                "over": g.over,
                "totals": g.totals(),
                "hands": [
                    {"deck": [int(c) for c in h.deck], "actions": [str(a) for a in h.actions]}
                    for h in g.hands
                ],
            }
            for seed, g in zip(session._seeds, games)
        ],
        "game_number": session._game_no,
        "moves": session.log.entries,
        "current_hand": None
        if session.tracker is None or session.tracker.over
        else {
            "number": session.tracker.hand_number,
            "dealer": session.tracker.dealer,
            "actions": [str(a) for a in session.tracker.actions],
            "my_cards": [str(c) for c in session.tracker.hand.hands[session.seat]],
        },
        "hand_state": hand_state(session),
        "chat": session.chat,
        **session.save_extra,
    }
