"""Computer opponents: one ``Player`` protocol, four levels, and a hint that explains itself.

Every player reads only a ``PlayerView`` (what its seat may know) and returns an action.
"""

from .levels import LEVELS, Personality, make_player
from .player import ComputerPlayer, IllegalChoice, Player

__all__ = ["LEVELS", "ComputerPlayer", "IllegalChoice", "Personality", "Player", "make_player"]
