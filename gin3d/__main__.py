"""``gin3d`` / ``python -m gin3d``: open the window and play."""

from __future__ import annotations

import argparse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gin3d", description="Gin Rummy on a 3D table")
    parser.add_argument("--seed", type=int, default=None, help="deal the same cards every game")
    parser.add_argument("--speed", type=float, default=1.0,
                        help="animation speed (1 normal, 2 twice as fast, 0 instant)")
    parser.add_argument("--size", default="1280x720", help="window size, e.g. 1920x1080")
    net = parser.add_argument_group("LAN and online play")
    net.add_argument("--name", default="", help="your name at the table")
    net.add_argument("--relay", default=None, help="a gin3d-relay, host:port (online play)")
    net.add_argument("--listen", default="0.0.0.0", help="address to host on")
    net.add_argument("--port", type=int, default=47470, help="port to host on (0: any)")
    net.add_argument("--no-lan-discovery", action="store_true",
                     help="no LAN list or LAN advertising (mDNS); join by address or code")
    net.add_argument("--no-upnp", action="store_true", help="do not ask the router for a port")
    args = parser.parse_args(argv)
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        parser.error(f"--size must look like 1280x720, got {args.size!r}")
    if args.speed < 0:
        parser.error("--speed cannot be negative")
    from panda3d.core import loadPrcFileData

    loadPrcFileData("gin3d", f"win-size {w} {h}\nwindow-title gin3d\nframebuffer-multisample 1"
                             "\nmultisamples 4")
    if not 0 <= args.port < 65536:
        parser.error(f"--port must be 0..65535, got {args.port}")
    if args.relay is not None and not args.relay.strip():
        parser.error("--relay needs host:port")
    net = dict(name=args.name, relay=args.relay, listen=args.listen, port=args.port,
               discovery=not args.no_lan_discovery, upnp=not args.no_upnp)
    app = launch(speed=args.speed, seed=args.seed, net=net)
    app.run()
    return 0


def launch(speed: float = 1.0, seed: int | None = None, net: dict | None = None):
    """Create the app (window, table, main menu) as fast as possible and return it.
    ``net``: the fields of ``gin3d.scene.lobby.NetConfig`` (name, relay, port...)."""
    from .scene import preload

    preload.start("classic")  # decode the card atlas while the rest is imported
    from .app import GinApp, Settings
    from .scene.lobby import NetConfig

    config = NetConfig(**(net or {}))
    if config.relay:
        from .net.transport import parse_address

        parse_address(config.relay, 47471)  # a bad relay address fails here, clearly
    return GinApp(Settings(speed=speed), seed=seed, net=config)


if __name__ == "__main__":
    raise SystemExit(main())
