"""``gin3d`` / ``python -m gin3d``: open the window and play."""

from __future__ import annotations

import argparse


def main(argv: list[str] | None = None) -> int:
    from gin3d import version
    from gin3d.net.constants import DEFAULT_PORT
    from gin3d.scene.media.quality import add_detail_option

    parser = argparse.ArgumentParser(prog="gin3d", description="Gin Rummy on a 3D table")
    parser.add_argument("--version", action="version", version=f"gin3d {version()}")
    parser.add_argument("--seed", type=int, default=None, help="deal the same cards every game")
    parser.add_argument(
        "--speed",
        type=float,
        default=None,
        help="animation speed (1 normal, 2 twice as fast, 0 instant); default: the saved setting",
    )
    parser.add_argument(
        "--size", default=None, help="window size, e.g. 1920x1080; default: the saved setting"
    )
    add_detail_option(parser)
    net = parser.add_argument_group("LAN and online play")
    net.add_argument("--name", default="", help="your name at the table")
    net.add_argument(
        "--relay",
        default=None,
        help="a gin3d-relay, host:port, or the nodes of one service, host:port,host:port "
        "(online play)",
    )
    net.add_argument("--listen", default="0.0.0.0", help="address to host on")
    net.add_argument("--port", type=int, default=DEFAULT_PORT, help="port to host on (0: any)")
    net.add_argument(
        "--no-lan-discovery",
        action="store_true",
        help="no LAN list or LAN advertising (mDNS); join by address or code",
    )
    net.add_argument("--no-upnp", action="store_true", help="do not ask the router for a port")
    net.add_argument(
        "--rendezvous",
        default="",
        help="with no online service: the magic-wormhole mailbox server friends meet at, "
        "ws://host:port/v1 (default: $GIN3D_RENDEZVOUS or the public one)",
    )
    net.add_argument(
        "--transit",
        default="",
        help="with no online service: the transit relay, host:port "
        "(default: $GIN3D_TRANSIT or the public one)",
    )
    args = parser.parse_args(argv)
    _point_rendezvous(parser, args.rendezvous, args.transit)
    from gin3d import settings as settings_mod

    loaded = settings_mod.load()  # never raises: a bad file gives the defaults and a message
    user = loaded.settings
    if loaded.message:
        print(f"gin3d: {loaded.message}", flush=True)
    try:
        if args.size is not None:
            user = user.but(resolution=tuple(int(v) for v in args.size.lower().split("x")))
        if args.speed is not None:
            user = user.but(animation_speed=args.speed)
    except ValueError as err:
        parser.error(str(err))
    if not 0 <= args.port < 65536:
        parser.error(f"--port must be 0..65535, got {args.port}")
    if args.relay is not None and not args.relay.strip():
        parser.error("--relay needs host:port")
    net = dict(
        name=args.name,
        relay=args.relay,
        listen=args.listen,
        port=args.port,
        discovery=not args.no_lan_discovery,
        upnp=not args.no_upnp,
    )
    app = launch(seed=args.seed, user=user, notice=loaded.message, net=net, detail=args.detail)
    app.run()
    return 0


def _point_rendezvous(parser, mailbox: str, transit: str) -> None:
    """``--rendezvous`` / ``--transit``: checked, then where the network layer reads them
    (its environment variables), over the built-in public servers."""
    if not (mailbox or transit):
        return
    import os

    from gin3d.net.mailbox import MAILBOX_ENV, TRANSIT_ENV, mailbox_url
    from gin3d.net.transit import transit_address

    try:
        if mailbox:
            os.environ[MAILBOX_ENV] = mailbox_url(mailbox)
        if transit:
            transit_address(transit)
            os.environ[TRANSIT_ENV] = transit
    except ValueError as err:
        parser.error(str(err))


def net_fields(net: dict | None, user) -> dict:
    """The network settings the app starts with: the command line's (``--name``,
    ``--relay``) over the player's settings (name, online service). A bad relay address
    fails here, clearly."""
    fields = dict(net or {})
    fields["name"] = fields.get("name") or user.player_name
    from gin3d.settings import service_in_use

    fields["relay"] = fields.get("relay") or service_in_use(user)
    if fields["relay"]:
        from gin3d.net.constants import RELAY_PORT
        from gin3d.net.transport import parse_relays

        parse_relays(fields["relay"], RELAY_PORT)
    return fields


def launch(
    speed: float | None = None,
    seed: int | None = None,
    user=None,
    notice: str | None = None,
    net: dict | None = None,
    detail: str = "auto",
):
    """Create the app (window, table, main menu) as fast as possible and return it.

    ``user``: the player's ``gin3d.settings.Settings`` (window size, full screen and
    antialiasing are applied before the window opens). Imports are absolute because packaged
    builds run this module as the top-level ``__main__``. ``net``: the fields of
    ``gin3d.scene.control.net_hub.NetConfig`` (name, relay, port...). ``detail``: the table's detail
    level (``gin3d.scene.media.quality.choose_detail``)."""
    from panda3d.core import loadPrcFileData

    from gin3d import settings as settings_mod
    from gin3d.app.screens.settings import window_prc
    from gin3d.scene.media import preload
    from gin3d.scene.media.quality import software_last_time
    from gin3d.scene.window.first_frame import (
        configure_before_window,
        install_exit_after_first_frame,
    )

    user = user or settings_mod.Settings()
    if speed is not None:
        user = user.but(animation_speed=speed)
    prc = window_prc(user, software_last_time())
    loadPrcFileData("gin3d", "window-title gin3d\n" + prc)
    configure_before_window()
    preload.start(user.card_style)  # decode the card atlas while the rest is imported
    from gin3d.app import GinApp
    from gin3d.scene.control.net_hub import NetConfig

    config = NetConfig(**net_fields(net, user))
    app = GinApp(seed=seed, user_settings=user, notice=notice, net=config, detail=detail)
    install_exit_after_first_frame(app)
    return app


if __name__ == "__main__":
    raise SystemExit(main())
