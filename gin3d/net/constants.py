"""The network's fixed numbers, in one place that loads nothing else (no asyncio, no TLS), so
the launcher, the lobby screens and the network stack all use the same values."""

DEFAULT_PORT = 47470  # TCP port a host listens on and a typed address defaults to
RELAY_PORT = 47471  # TCP port of a gin3d-relay when an address names none
EXAMPLE_ADDRESS = f"192.168.1.20:{DEFAULT_PORT}"  # shown when an address is missing
