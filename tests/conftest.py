import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

# the game's files (settings, saves, statistics, history) go to a scratch folder in tests,
# never to the real user folders
os.environ["GIN3D_HOME"] = tempfile.mkdtemp(prefix="gin3d-test-home-")
atexit.register(shutil.rmtree, os.environ["GIN3D_HOME"], True)

ROOT = str(Path(__file__).resolve().parent.parent)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: takes a minute or more (still runs in CI)")
