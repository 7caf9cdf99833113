"""The Rules screen: what the rules in play are, every number with what it means."""

from __future__ import annotations

from .base import Screen

# Gin for three (Players: 3 on the New game screen), as the engine plays it
THREE_PLAYERS = (
    "Three players: the dealer deals to the other two and sits the hand out; the loser",
    "deals the next. Each keeps a score; the first to the target wins the game bonus,",
    "everyone a box per hand won (no shutout); after a drawn hand the same dealer deals.",
)

# four in two teams (Players: 4), as engine.PartnershipGame plays it
TEAMS = (
    "Four, in teams: you and your partner each play a hand against one of the other team",
    "at once, facing each in turn. The team ahead in the round scores the difference",
    "(both hands won: their sum); the first team to 125 wins.",
)


class RulesScreen(Screen):
    """State ``Rules``: the rules in play; Back and Esc go where it came from."""

    name = "Rules"

    def enter(self, back: str = "Menu") -> None:
        self.flow.back_to = back
        session = self.services.session
        rules = session.rules if session is not None else self.services.setup.rules()
        p = self._panel(f"Rules: {rules.name}", width=1.15, height=0.88)
        lines = [
            "Melds: 3-4 of a rank, or 3+ in a row of one suit (ace low). Deadwood: the rest.",
            "Your turn: draw (stock or pile), then discard. Knock when your deadwood is low",
            "enough; gin is 0. The other player lays off on the knocker's melds.",
            *THREE_PLAYERS,
            *TEAMS,
            "",
            *rules.explain(),  # every number with what it means
        ]
        step = min(0.075, 1.3 / len(lines))
        for i, line in enumerate(lines):
            p.text(line, 0.6 - i * step, 0.04 if i < 3 + len(THREE_PLAYERS) + len(TEAMS) else 0.036)
        p.button("back", "Back", lambda: self.request(self.flow.back_to), (0, -0.78), scale=0.06)
        self._esc(back)
