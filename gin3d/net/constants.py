"""The network's fixed numbers and words, in one place that loads nothing else (no asyncio,
no TLS), so the launcher, the lobby screens, the table and the network stack all use the same
values."""

DEFAULT_PORT = 47470  # TCP port a host listens on and a typed address defaults to
RELAY_PORT = 47471  # TCP port of a gin3d-relay when an address names none
EXAMPLE_ADDRESS = f"192.168.1.20:{DEFAULT_PORT}"  # shown when an address is missing
NO_ANSWER = "the service did not answer: "  # how a ServiceError from no node at all begins

# the link's status texts (``status`` events; the table shows them and reads its state off them)
WAITING = "waiting for opponent…"
CONNECTED = "connected"
GONE = "opponent gone"
CHEATED = "your opponent's client cheated"
# what a table's guest says of its own link to the host (its notes; the table shows them)
HOST_LOST = "lost the table's host"
HOST_BACK = "back at the table"
RECONNECTING = "reconnecting to the host…"
# reasons of a bye the table words in its own way
SAVED_BYE = "saved the match to finish later"  # a bye with this reason: both keep their saves
DECLINED = "declined the host's rules"

# a match's words and limits (gin3d.net.session and its parts)
CAUGHT = "cheating detected"  # the bye sent to a peer whose step or key failed its proof
SAVE_FORMAT = "gin3d-net-save/1"
RULES_REFUSED = "rules refused"  # the host's match does not use the rules it offered
FAREWELL_PING = 2**61  # a ping numbered this plus our bye's seq: its pong confirms the bye
# what the peer is told for any refused move: the same words whatever our hidden cards are,
# so refusals are no oracle (the detail, for our own player, stays on this side)
MOVE_REFUSED = "that move is not legal"
STALLED = "opponent stopped playing"  # the detail of a match claimed against a staller
CHAT_KEPT = 100  # chat lines kept (and saved): a flood cannot make a save unresumable
INCIDENTS_KEPT = 50  # refused messages kept for the evidence file
# game messages: sending one means we took the peer's last step and moved on
PROGRESS_MESSAGES = frozenset(
    {
        "setup",
        "commit",
        "open",
        "deck",
        "chal",
        "opening",
        "keys",
        "act",
        "reveal",
        "rematch",
        "restore",
    }
)
HAND_MESSAGES = frozenset({"deck", "chal", "opening", "keys", "act", "reveal"})  # by hand
# a hand's deal: read from a queue of their own, so the next hand's deal can run ahead while
# this hand's moves are read from the main one
DEAL_MESSAGES = frozenset({"deck", "chal", "opening"})

# direct-first online play (gin3d.net.candidates; docs/net.md, *Direct first*)
DIRECT_TIMEOUT = 4.0  # seconds a guest tries the host's published addresses before the relay
MAX_CANDIDATES = 4  # direct addresses a host publishes (and a guest accepts) at most
