"""The network's fixed numbers and words, in one place that loads nothing else (no asyncio,
no TLS), so the launcher, the lobby screens, the table and the network stack all use the same
values."""

DEFAULT_PORT = 47470  # TCP port a host listens on and a typed address defaults to
RELAY_PORT = 47471  # TCP port of a gin3d-relay when an address names none
EXAMPLE_ADDRESS = f"192.168.1.20:{DEFAULT_PORT}"  # shown when an address is missing

# the link's status texts (``status`` events; the table shows them and reads its state off them)
WAITING = "waiting for opponent…"
CONNECTED = "connected"
GONE = "opponent gone"
CHEATED = "your opponent's client cheated"
# reasons of a bye the table words in its own way
SAVED_BYE = "saved the match to finish later"  # a bye with this reason: both keep their saves
DECLINED = "declined the host's rules"
