"""What the table shows (prompt, buttons, glows) as a pure function of the seat's view: no
window, no Panda3D. The expected lines are the ones the table showed before the function was
taken out of ``TableInput.refresh``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from engine_helpers import deck_for

from gin3d.engine import Discard, DrawStock, Hand, Knock, LayOff, Pass, PlayerView, RuleSet, card
from gin3d.scene.control.prompts import (
    GLOW_DRAW,
    GLOW_KNOCK,
    GLOW_LAYOFF,
    GLOW_SELECTED,
    Glow,
    InputState,
    table_shows,
)

ROOT = Path(__file__).resolve().parent.parent
CLASSIC = RuleSet.preset("classic")
# you (seat 0) hold 4-5-6♥, three nines and 10-J-Q♣ with the 2♦ loose; the dealer is seat 1
YOU = "4H 5H 6H 9S 9D 9C TC JC QC 2D"
DEALER = "KS KD KC 5S 6S 7S 8H 9H 3C AD"
PILE, STOCK = Glow("pile", GLOW_DRAW), Glow("stock", GLOW_DRAW)


def hand_after(actions, you=YOU, dealer=DEALER, upcard="KH", stock="7H") -> Hand:
    hand = Hand(CLASSIC, 1, deck_for(you, dealer, upcard, stock))
    for a in actions:
        hand.apply(a)
    return hand


def shows(hand: Hand, **state):
    view = PlayerView.of(hand, 0)
    legal = hand.legal_actions() if hand.turn == 0 and not hand.over else []
    state.setdefault("hints", bool(legal))
    return table_shows(view, legal, InputState(**state))


def test_upcard_take_or_pass():
    s = shows(hand_after([]))
    assert s.prompt == "Take the K♥ or pass"
    assert s.buttons == {"hint", "pass", "take"}
    assert s.glows == (PILE,)
    s = shows(hand_after([]), hints=False, selected=card("2D"))
    assert s.buttons == {"pass", "take"}
    assert s.glows == (PILE, Glow("hand", GLOW_SELECTED, card=card("2D")))


def test_draw_after_both_pass_is_stock_only():
    s = shows(hand_after([Pass(), Pass()]))
    assert s.prompt == "Draw from the stock"
    assert s.buttons == {"hint"}
    assert s.glows == (STOCK,)


def test_discard_with_gin_offers_gin_even_with_a_card_selected():
    hand = hand_after([Pass(), Pass(), DrawStock()])  # the 7♥ makes 4-7♥: the 2♦ goes, gin
    for selected in (None, card("2D")):
        s = shows(hand, selected=selected)
        assert s.prompt == "You can go gin! Press Gin, or discard"
        assert s.buttons == {"gin", "hint", "knock"}


def test_discard_that_may_knock():
    hand = hand_after([Pass(), Pass(), DrawStock()], stock="8D")  # 2♦ + 8♦: knock on either
    s = shows(hand, selected=card("8D"))
    assert s.prompt == "Discard the 8♦: click it again or the pile, or press Enter - or Knock"
    assert s.buttons == {"hint", "knock"}
    assert s.glows == (PILE, Glow("hand", GLOW_SELECTED, card=card("8D")))
    s = shows(hand, knock_mode=True)
    assert s.prompt == "Knock: click the card to lay face down"
    assert set(s.glows) == {Glow("hand", GLOW_KNOCK, card=card(c)) for c in ("2D", "8D")}
    s = shows(hand)
    assert s.prompt == "Discard: click a card then the pile, or drag it onto the pile - or Knock"


def test_big_gin():
    hand = hand_after(
        [Pass(), Pass(), DrawStock()],
        you="4H 5H 6H 9S 9D 9C TC JC QC KC",
        dealer="2S 3S 5S 6S 7S 8H 9H 3C AD 4D",
    )
    s = shows(hand)
    assert s.prompt == "Big Gin! Press Gin to lay out all 11 cards"
    assert s.buttons == {"gin", "hint", "knock"}


def test_waiting_for_the_opponent():
    s = shows(hand_after([Pass()]), waiting="Bot is thinking...")
    assert s.prompt == "Bot is thinking..."
    assert s.buttons == frozenset() and s.glows == ()


def test_layoff_glows_the_cards_that_fit_and_the_selected_cards_meld():
    # the dealer knocks with the A♦ loose; you can lay the A♣ on 2-3-4♣ and the 8♠ on 5-6-7♠
    hand = hand_after(
        [Pass(), Pass(), DrawStock(), Discard(card("2D")), DrawStock(), Knock(card("7D"))],
        you="4H 5H 6H 9D 9H 9C TC JC AC 8S",
        dealer="KS KD KC 5S 6S 7S 2C 3C 4C AD",
        stock="2D 7D",
    )
    assert hand.phase == "layoff" and hand.turn == 0
    fits = {Glow("hand", GLOW_LAYOFF, card=card(c)) for c in ("AC", "8S")}
    s = shows(hand)
    assert s.prompt == "Lay off: click a glowing card, or press Best layoff / Done"
    assert s.buttons == {"bestlayoff", "done", "hint"}
    assert set(s.glows) == fits
    s = shows(hand, selected=card("AC"))
    assert s.prompt == "Click the meld to lay the A♣ on"
    assert set(s.glows[:2]) == fits
    assert s.glows[2:] == (
        Glow("meld", GLOW_LAYOFF, meld=0),  # 2-3-4♣
        Glow("hand", GLOW_SELECTED, card=card("AC")),  # last: its colour wins
    )
    hand.apply(LayOff(card("AC"), 0))
    hand.apply(LayOff(card("8S"), 1))
    s = shows(hand)
    assert s.prompt == "Nothing to lay off: press Done"
    assert s.buttons == {"done", "hint"} and s.glows == ()


def test_prompts_import_no_panda3d():
    code = (
        "import sys; sys.modules['panda3d'] = sys.modules['direct'] = None\n"
        "import gin3d.scene.control.prompts\n"
        "assert not any(m.split('.')[0] in ('panda3d', 'direct') for m in sys.modules"
        " if sys.modules[m] is not None)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr


def test_every_key_names_a_command():
    from gin3d.scene.control.tableinput import COMMANDS, KEYS

    assert {n for n in KEYS.values() if not n.startswith("sort:")} <= set(COMMANDS)
