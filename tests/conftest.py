import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from plain_failures import pytest_runtest_makereport  # noqa: F401  (a failure always reported)

# the game's files (settings, saves, statistics, history) go to a scratch folder in tests,
# never to the real user folders
os.environ["GIN3D_HOME"] = tempfile.mkdtemp(prefix="gin3d-test-home-")
atexit.register(shutil.rmtree, os.environ["GIN3D_HOME"], True)
# a friend by code meets at public servers by default: a test may only reach loopback ones
# (tests/rendezvous_servers.py starts them; gin3d.net.mailbox.check_loopback refuses others)
os.environ["GIN3D_TEST_LOOPBACK_ONLY"] = "1"

ROOT = str(Path(__file__).resolve().parent.parent)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: takes a minute or more (still runs in CI)")


@pytest.fixture(scope="module", autouse=True)
def no_saved_game_from_another_file():
    """Each test file starts with no saved game: on the README's two workers a file runs
    after a different set of files than in one process, and a game one of them left saved
    made Start ask to replace it."""
    from gin3d.saves import delete_save

    delete_save()


# the player's-eye scenarios' fixtures (tests/player_harness.py holds the rest)
@pytest.fixture(scope="module")
def xserver():
    """One Xvfb per test module, stopped after it."""
    from player_harness import XServer

    x = XServer().start()
    yield x
    x.stop()


@pytest.fixture
def player(xserver, tmp_path):
    """``player(...)`` starts the game in a window of its own; each one is stopped after the
    test."""
    from player_harness import SHOTS, Player

    players: list = []

    def make(
        home: Path | None = None, args: tuple[str, ...] = (), wait: bool = True, **options
    ) -> Player:
        p = Player(xserver, home or tmp_path / "home", SHOTS, args=args, **options)
        players.append(p)
        return p.start(wait=wait)

    yield make
    for p in players:
        p.stop()


LONGEST_FIRST = ("test_player_soak.py", "test_player_flows.py", "test_player_groups.py")


def pytest_collection_modifyitems(items):
    """The longest files first: the player's-eye soak, then the other scenarios. On the
    README's two workers (a file per worker, in this order) each starts at once on a worker
    of its own and the short files fill in around them, instead of one starting last."""

    def rank(item) -> int:
        name = item.path.name
        return LONGEST_FIRST.index(name) if name in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)
