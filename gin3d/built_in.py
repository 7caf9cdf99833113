"""The online service a build carries, so its players find the lobby with nothing to type.

A packager names the service once when building (``setup_build.py build_apps --service
host:port[,host:port...]``, or ``GIN3D_BUILD_SERVICE``); the build then holds
``gin3d/service.json``, and the game uses that service whenever the player has set none of
their own in Settings (an installed package may carry the same file beside its modules).
A file that cannot be read or names no valid service is ignored: the game then offers LAN,
direct play and a friend by code, as with no file at all.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from .paths import bundle_root, write_atomic

FILE = "service.json"
FORMAT = "gin3d-service"
MAX = 200  # characters, as the Settings field takes


def service_file() -> Path:
    """Where the build's service is kept: beside the frozen game's data, or in the package."""
    root = bundle_root()
    if root is not None:
        return root / "gin3d" / FILE
    return Path(str(resources.files("gin3d"))) / FILE


def check_service(service: str) -> str:
    """``service`` if it is one or more ``host:port`` (comma-separated, no spaces, each port
    1-65535); else ValueError saying what is wrong."""
    if not isinstance(service, str) or not 0 < len(service) <= MAX:
        raise ValueError(f"a service is host:port, at most {MAX} characters")
    for node in service.split(","):
        host, _, port = node.rpartition(":")
        if not host or any(ch.isspace() or not ch.isprintable() for ch in host):
            raise ValueError(f"{node!r} is not host:port")
        if not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"{node!r} has no port from 1 to 65535")
    return service


def built_in_service(path: Path | None = None) -> str:
    """The service the build carries, or "" (no file, or one that names no valid service)."""
    path = path or service_file()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != FORMAT:
            return ""
        return check_service(data.get("online_service"))
    except (OSError, ValueError, AttributeError):
        return ""


def bake_service(folder: Path, service: str) -> Path:
    """Write ``service`` as the built-in one into a build's ``gin3d`` data ``folder``
    (ValueError, and nothing written, for a service that is not host:port)."""
    check_service(service)
    folder.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"format": FORMAT, "online_service": service}, indent=1) + "\n"
    path = folder / FILE
    write_atomic(path, text)
    return path
