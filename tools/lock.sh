#!/usr/bin/env bash
# Remakes the lock: every package gin3d installs, pinned, for every Python gin3d supports.
#   requirements.txt       what the game needs (the README's play command, setup_build.py)
#   requirements-test.txt  the same pins plus the test tools (the README's test command, CI)
#                          and the packaged build's TLS libraries (setup_build.py)
# Both come from pyproject.toml's ranges and tools/lock-constraints.txt, resolved by uv; the
# test file is resolved under the game's pins, so the two never disagree.
# Needs uv (pip install uv). Run it after changing a dependency; commit both files.
set -euo pipefail
cd "$(dirname "$0")/.."
python_floor=3.10
common=(--universal --python-version "$python_floor" --custom-compile-command tools/lock.sh)
uv pip compile pyproject.toml "${common[@]}" -c tools/lock-constraints.txt \
    -o requirements.txt --quiet
uv pip compile pyproject.toml --extra test --extra build-tls "${common[@]}" -c requirements.txt \
    -o requirements-test.txt --quiet
# The packaged builds need a wheel of every pin for each of their platforms (setup_build.py's
# PLATFORMS, CPython 3.11): a pin without one fails build_apps, so it fails here first.
platforms=$(python3 -c 'import re, pathlib
text = pathlib.Path("setup_build.py").read_text()
print(" ".join(re.findall(r"\"(\w+)\"", re.search(r"PLATFORMS = \[(.*?)\]", text)[1])))')
for platform in $platforms; do
    scratch=$(mktemp -d)
    if ! python3 -m pip download --quiet --disable-pip-version-check --only-binary=:all: \
            --python-version 311 --abi cp311 --platform "$platform" \
            -r requirements.txt -d "$scratch" >"$scratch.log" 2>&1; then
        grep ERROR "$scratch.log" >&2
        echo "lock.sh: a pin has no $platform wheel; limit it in tools/lock-constraints.txt" >&2
        rm -rf "$scratch" "$scratch.log"
        exit 1
    fi
    rm -rf "$scratch" "$scratch.log"
done
