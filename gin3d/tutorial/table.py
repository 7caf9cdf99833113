"""What a lesson has on the table: a real ``Hand`` (or practice ``Game``) and a score sheet.

The runner rebuilds a ``Table`` from the chapter's fixed deal and the actions so far; the
narration and the claims read it only through ``names()``, the namespace that both the
``{placeholders}`` and the claim expressions use.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterable
from typing import Any

from gin3d.engine import (
    CARDS,
    Card,
    CardDrawn,
    Event,
    Game,
    GameScore,
    Hand,
    HandResult,
    HollywoodScore,
    RuleSet,
    best_melds,
    deadwood,
    deadwood_of_mask,
    is_meld,
    layoff_targets,
    parse_action,
    parse_hand,
    score_knock,
)
from gin3d.engine.cards import RANKS
from gin3d.engine.groups import pairings, round_score, team_of, three_player_next_dealer
from gin3d.engine.rules import PRESETS

from .lesson import Chapter, Group, SheetHand

# options the scripted deals cannot follow; the lessons explain them in words instead
UNSCRIPTABLE = {
    "no_upcard": False,
    "straight_gin": False,
    "allow_throw_back": False,
    "last_chance": False,
    "hollywood": False,
}
SEAT_NAMES = ("you", "them")


def lesson_rules(rules: RuleSet | None) -> RuleSet:
    """The rules the scripted chapters play: the active ones without the options that change
    how a hand is dealt or ended (no upcard, straight gin, throw-back, last chance, Hollywood)."""
    rules = rules or RuleSet.preset("classic")
    changes = {k: v for k, v in UNSCRIPTABLE.items() if getattr(rules, k) != v}
    return rules.but(**changes) if changes else rules


class Table:
    """The engine state of one chapter at one step."""

    def __init__(self, chapter: Chapter, rules: RuleSet) -> None:
        self.chapter = chapter
        self.rules = rules
        # a one-hand Game over the fixed deck, so the scene's game loop can run the very same
        # object; the practice hand is a normal seeded game that you play from the non-deal
        self.game: Game | None = None
        if chapter.practice_seed is not None:
            self.game = Game(rules, seed=chapter.practice_seed, first_dealer=1)
        elif chapter.deal is not None:
            self.game = Game(
                rules,
                seed=f"tutorial:{chapter.id}",
                first_dealer=chapter.deal.dealer,
                decks=[chapter.deal.deck()],
            )
        self.sheet: GameScore | None = None
        self.sheet_hands: tuple[SheetHand, ...] = ()
        self.sheet_next = 0
        self.last: HandResult | None = None
        self.last_seat: int | None = None
        self.recorded_now = 0

    @property
    def hand(self) -> Hand | None:
        """The hand on the table, or None in a chapter that only lays out example cards."""
        return self.game.hand if self.game is not None else None

    # -- changes ------------------------------------------------------------------------
    def action_text(self, template: str) -> str:
        """An action text with its placeholders (``{drawn}``…) filled in text form."""
        return string.Formatter().vformat(template, (), _TextNames(self.names()))

    def apply(self, template: str) -> list[Event]:
        """Apply one scripted action (text form, placeholders allowed) to the hand."""
        if self.hand is None:
            raise ValueError("this chapter has no hand to play")
        return self.game.apply(parse_action(self.action_text(template)))

    def run(self, items: Iterable[Any]) -> list[Event]:
        """Apply a step's ``do`` list (with ``repeat`` blocks); return every event."""
        events: list[Event] = []
        for item in items:
            if isinstance(item, dict):
                for _ in range(item["repeat"]):
                    events += self.run(item["do"])
            else:
                events += self.apply(item)
        return events

    def start_sheet(self, name: str) -> None:
        self.sheet = GameScore(self.rules)
        self.sheet_hands = self.chapter.sheets[name]
        self.sheet_next = 0
        self.last = None
        self.last_seat = None
        self.recorded_now = 0

    def record(self, count: int | str) -> None:
        """Score the next hands of the sheet (``"all"``: until the list ends or the game is
        over) with the engine's own ``score_knock``."""
        if self.sheet is None:
            raise ValueError("record needs a 'sheet' first")
        self.recorded_now = 0
        limit = len(self.sheet_hands) if count == "all" else self.sheet_next + int(count)
        while self.sheet_next < min(limit, len(self.sheet_hands)) and not self.sheet.over:
            h = self.sheet_hands[self.sheet_next]
            result = score_knock(list(h.knocker_cards), list(h.other_cards), self.rules)
            self.sheet.add(result, h.knocker)
            self.last = result
            self.last_seat = h.knocker if result.winner == "knocker" else 1 - h.knocker
            self.sheet_next += 1
            self.recorded_now += 1
        if count != "all" and self.recorded_now != int(count):
            raise ValueError(f"the sheet could not record {count} hands (game over or no more)")

    # -- the namespace ------------------------------------------------------------------
    def names(self, opponent: str = "Robin") -> dict[str, Any]:
        """Values and functions for narration placeholders and claims."""
        rules = self.rules
        ns: dict[str, Any] = dict(rules.to_dict())
        ns.update(
            preset=rules.name,
            opp=opponent,
            Opp=opponent[:1].upper() + opponent[1:],
            deck_size=len(CARDS),
            big_gin=rules.big_gin_allowed,
            upcard_limit=rules.knock_limit_from_upcard,
            knock_limit=rules.knock_limit,
        )
        ns.update(_FUNCTIONS)

        def knock_result(knocker: str, other: str) -> list[Any]:
            result = score_knock(_cards(knocker), _cards(other), rules)
            return [result.kind, result.points]

        ns["knock_result"] = knock_result
        hand = self.hand
        if hand is not None:
            self._hand_names(ns, hand)
        if self.sheet is not None:
            self._sheet_names(ns, self.sheet)
        group = self.chapter.group
        if group is not None and hand is not None:
            players = ("you", opponent, group.sitter or group.partner, group.partner_opponent)
            winner = hand.winner if hand.over else -1  # players 0 and 1 sit at seats 0 and 1
            if group.players == 3:
                ns.update(_three_player_names(players, winner))
            else:
                points = hand.result.points if hand.result else 0
                ns.update(_partnership_names(group, players, winner, points, rules))
        return ns

    def _hand_names(self, ns: dict[str, Any], hand: Hand) -> None:
        drawn = next((e.card for e in reversed(hand.events) if isinstance(e, CardDrawn)), None)
        result = hand.result
        ns.update(
            phase=hand.phase,
            turn=hand.turn,
            dealer=hand.dealer,
            stock=len(hand.stock),
            pile_size=len(hand.pile),
            top=hand.pile[-1] if hand.pile else None,
            upcard=hand.upcard,
            drawn=drawn,
            knock_limit=hand.knock_limit,
            knocker=-1 if hand.knocker is None else hand.knocker,
            deadwood=deadwood(hand.hands[0]),
            their_deadwood=deadwood(hand.hands[1]),
            hand_over=hand.over,
            hand_drawn=hand.drawn,
            winner=-1 if hand.winner is None else hand.winner,
            result_kind=result.kind if result else "",
            points=result.points if result else 0,
            knocker_deadwood=result.knocker_deadwood if result else 0,
            other_deadwood=result.other_deadwood if result else 0,
            breakdown=result.breakdown() if result else "",
            multiplier=hand.rules.hand_multiplier(hand.upcard),
        )

        def seat_cards(seat: int) -> list[Card]:
            return list(hand.hands[seat])

        def legal(text: str) -> bool:
            try:
                return hand.is_legal(parse_action(text))
            except ValueError:
                return False

        def dead_if(token: str) -> int:
            c = parse_hand(token, 1)[0]
            seat = hand.turn if hand.turn >= 0 else 0
            if c not in hand.hands[seat]:
                raise ValueError(f"{c} is not in seat {seat}'s hand")
            return deadwood_of_mask(hand.masks[seat] & ~c.bit)

        ns.update(
            deadwood_of_seat=lambda seat: deadwood(seat_cards(seat)),
            hand_size=lambda seat: len(hand.hands[seat]),
            in_hand=lambda seat, text: set(parse_hand(text)) <= set(hand.hands[seat]),
            known=lambda seat, text: set(parse_hand(text)) <= set(hand.seen_taken[seat]),
            legal=legal,
            dead_if=dead_if,
            fits_table=lambda text: bool(layoff_targets(hand.table_melds, parse_hand(text, 1)[0])),
            table_melds=lambda: [" ".join(str(c) for c in m) for m in hand.table_melds],
            melds_of=lambda seat: [
                " ".join(str(c) for c in m) for m in best_melds(hand.hands[seat]).melds
            ],
            legal_count=lambda: len(hand.legal_actions()),
        )

    def _sheet_names(self, ns: dict[str, Any], sheet: GameScore) -> None:
        last = self.last
        ns.update(
            over=sheet.over,
            game_winner=-1 if sheet.winner is None else sheet.winner,
            is_shutout=sheet.shutout,
            margin=sheet.margin,
            hands_played=len(sheet.hands),
            recorded=self.recorded_now,
            last_points=last.points if last else 0,
            last_kind=last.kind if last else "",
            last_breakdown=last.breakdown() if last else "",
            last_winner=-1 if self.last_seat is None else self.last_seat,
            last_other_deadwood=last.other_deadwood if last else 0,
        )
        running, boxes, totals = sheet.running(), sheet.boxes(), sheet.totals()
        rows = sheet.breakdown()
        for seat, who in enumerate(SEAT_NAMES):
            ns[f"running_{who}"] = running[seat]
            ns[f"boxes_{who}"] = boxes[seat]
            ns[f"total_{who}"] = totals[seat]
            ns[f"box_points_{who}"] = rows[seat]["boxes"]
            ns[f"shutout_points_{who}"] = rows[seat]["shutout"]
            ns[f"game_bonus_{who}"] = rows[seat]["game_bonus"]


# -- the players beyond the table: three-player Gin and the partnership game ------------
def _three_player_names(players: tuple[str, ...], winner: int | None) -> dict[str, Any]:
    """Who sits out (player 2 dealt) and who deals next, by ``three_player_next_dealer``:
    after this hand (``winner`` -1 while it goes on, None for a draw) and after a draw."""
    sitter, seats = 2, (0, 1)
    names: dict[str, Any] = {
        "sitter": players[sitter],
        "sitter_player": sitter,
        "drawn_next_dealer": players[three_player_next_dealer(sitter, seats, None)],
        "next_dealer": "",
        "next_dealer_player": -1,
        "stays_in": "",
    }
    if winner != -1:
        nxt = three_player_next_dealer(sitter, seats, winner)
        names.update(
            next_dealer=players[nxt],
            next_dealer_player=nxt,
            stays_in="" if winner is None else players[winner],
        )
    return names


def _partnership_names(
    group: Group, players: tuple[str, ...], winner: int | None, points: int, rules: RuleSet
) -> dict[str, Any]:
    """The partner's hand at the other table (scored by ``score_knock``), the round both hands
    make by ``round_score``, and whom you face next round by ``pairings``."""
    staged = group.partner_hand
    result = score_knock(list(staged.knocker_cards), list(staged.other_cards), rules)
    partner_seat = staged.knocker if result.winner == "knocker" else 1 - staged.knocker
    partner_winner = (2, 3)[partner_seat]
    next_pair = next(pair for pair in pairings(1) if 0 in pair)  # your table next round
    names: dict[str, Any] = {
        "partner": group.partner,
        "partner_opp": group.partner_opponent,
        "partner_result": [result.kind, result.points],
        "partner_points": result.points,
        "partner_winner": players[partner_winner],
        "partner_won": partner_winner == 2,
        "partner_knocker_deadwood": result.knocker_deadwood,
        "partner_other_deadwood": result.other_deadwood,
        "next_round_opponent": players[next_pair[1 - next_pair.index(0)]],
        "round_team": -1,
        "round_team_name": "",
        "round_points": 0,
        "round_if_both_won": 0,
    }
    if winner != -1:  # the hand on the table is over: the round both hands make
        hands = [(None if winner is None else team_of(winner), points)]
        team, won = round_score([*hands, (team_of(partner_winner), result.points)])
        names.update(
            round_team=-1 if team is None else team,
            round_team_name="nobody" if team is None else ("your team", "the other team")[team],
            round_points=won,
            round_if_both_won=round_score([(0, points), (0, result.points)])[1],
        )
    return names


# -- functions for claims about cards that are not in the hand --------------------------
def _cards(text: str) -> list[Card]:
    return parse_hand(text)


def _dead_after(cards: str, melds: str) -> int:
    """Deadwood of ``cards`` when exactly the melds written ``"5H 6H 7H | 7S 7D 7C"`` are
    made (each must be a real meld of cards in the hand)."""
    held = set(_cards(cards))
    used: set[Card] = set()
    for group in melds.split("|"):
        meld = _cards(group)
        if not is_meld(meld):
            raise ValueError(f"{group.strip()} is not a meld")
        if not set(meld) <= held or used & set(meld):
            raise ValueError(f"{group.strip()} is not made of unused cards of the hand")
        used |= set(meld)
    return sum(c.value for c in held - used)


def _outs(cards: str, seen: str = "") -> int:
    """How many unseen cards would turn ``cards`` (a pair or so) into a meld."""
    held = _cards(cards)
    gone = set(held) | set(_cards(seen))
    return sum(1 for c in CARDS if c not in gone and is_meld([*held, c]))


def _runs_containing(token: str) -> int:
    """Runs (3 or more in a row, one suit) that this card could be part of."""
    rank = parse_hand(token, 1)[0].rank
    return sum(1 for lo in range(13) for hi in range(lo + 2, 13) if lo <= rank <= hi)


def _variant_limit(name: str, upcard: str) -> int:
    """The knock limit a variant gives with this first upcard."""
    up = parse_hand(upcard, 1)[0]
    if name == "straight":
        return RuleSet.preset("classic", straight_gin=True).knock_limit_for(up)
    if name in PRESETS:
        return RuleSet.preset(name).knock_limit_for(up)
    raise ValueError(f"unknown variant {name!r}")


def _variant_multiplier(name: str, upcard: str) -> int:
    """How many times a hand counts under a preset with this first upcard (Oklahoma: 2 for a
    spade)."""
    return RuleSet.preset(name).hand_multiplier(parse_hand(upcard, 1)[0])


def _hollywood(wins: str) -> list[int]:
    """Game totals (seat 0 then seat 1 per game, before bonuses) after Hollywood-scored wins
    written ``"0:20 1:15 0:30"`` (seat:points)."""
    score = HollywoodScore(RuleSet.preset("classic", hollywood=True))
    for token in wins.split():
        seat, points = token.split(":")
        score.wins[int(seat)] += 1
        for game in score.games[: min(score.wins[int(seat)], 3)]:
            if not game.over:
                game.add_points(int(seat), int(points))
    return [game.running()[s] for game in score.games for s in (0, 1)]


def _best(cards: str) -> list[str]:
    return [" ".join(str(c) for c in m) for m in best_melds(_cards(cards)).melds]


_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "value": lambda token: parse_hand(token, 1)[0].value,
    "is_meld": lambda text: is_meld(_cards(text)),
    "deadwood_of": lambda text: deadwood(_cards(text)),
    "best_melds": _best,
    "dead_after": _dead_after,
    "outs": _outs,
    "runs_containing": _runs_containing,
    "variant_limit": _variant_limit,
    "variant_multiplier": _variant_multiplier,
    "hollywood": _hollywood,
    "count": lambda text: len(_cards(text)),
    "rank_of": lambda token: RANKS[parse_hand(token, 1)[0].rank],
}


class _TextNames(dict):
    """Names for action templates: cards in text form (``7H``), not pretty."""

    def __init__(self, names: dict[str, Any]) -> None:
        super().__init__({k: (str(v) if isinstance(v, Card) else v) for k, v in names.items()})
