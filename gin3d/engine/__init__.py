"""The rules engine: pure, deterministic, no Panda3D and no I/O.

Everything else in gin3d (scene, AI, network, tutorial, saves) is a view of its events.
"""

from .actions import (
    Action,
    BigGin,
    Discard,
    DrawDiscard,
    DrawStock,
    FinishLayoff,
    Knock,
    LayOff,
    NextHand,
    Pass,
    parse_action,
)
from .cards import CARDS, Card, card, cards_of, format_cards, mask_of, parse_cards, parse_hand
from .events import (
    CardDealt,
    CardDrawn,
    DealerChosen,
    Discarded,
    Event,
    GameOver,
    HandDrawn,
    HandRevealed,
    HandScored,
    HandStarted,
    Knocked,
    LaidOff,
    Passed,
    UpcardTurned,
    redact,
)
from .game import Game, Match, cut_for_deal
from .hand import (
    DISCARD,
    DRAW,
    LAST_CHANCE,
    LAYOFF,
    OVER,
    UPCARD,
    Hand,
    IllegalAction,
    shuffled_deck,
)
from .layoffs import best_layoff, layoff_targets
from .melds import (
    Arrangement,
    all_best_arrangements,
    best_melds,
    deadwood,
    deadwood_of_mask,
    discard_deadwood_array,
    discard_deadwoods,
    is_meld,
)
from .rules import PRESETS, RuleSet
from .scoring import GameScore, HandResult, HollywoodScore, MatchScore, score_knock, settle
from .view import PlayerView

__all__ = [
    "CARDS", "DISCARD", "DRAW", "LAST_CHANCE", "LAYOFF", "OVER", "PRESETS", "UPCARD",
    "Action", "Arrangement", "BigGin", "Card", "CardDealt", "CardDrawn", "DealerChosen",
    "Discard", "Discarded", "DrawDiscard", "DrawStock", "Event", "FinishLayoff", "Game",
    "GameOver", "GameScore", "Hand", "HandDrawn", "HandResult", "HandRevealed", "HandScored",
    "HandStarted", "HollywoodScore", "IllegalAction", "Knock", "Knocked", "LaidOff", "LayOff",
    "Match", "MatchScore", "NextHand", "Pass", "Passed", "PlayerView", "RuleSet", "UpcardTurned",
    "all_best_arrangements", "best_layoff", "best_melds", "card", "cards_of", "cut_for_deal",
    "deadwood", "deadwood_of_mask", "discard_deadwood_array", "discard_deadwoods", "format_cards",
    "is_meld", "layoff_targets", "mask_of", "parse_action", "parse_cards", "parse_hand",
    "redact", "score_knock", "settle", "shuffled_deck",
]
