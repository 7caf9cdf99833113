#!/usr/bin/env bash
# Runs the README's play command, exactly as written there, in a fresh copy of the checkout
# (so in a fresh .venv), with the game told to render offscreen and stop after its first
# frame: the command a new player types installs gin3d and starts it. .ci/run calls it with
# the same python3 the test command uses (Debian's own where there is one).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
play=$(awk '/^## Set up/{s=1} s&&/^```sh/{getline; print; exit}' "$root/README.md")
case "$play" in
    *"python3 -m venv .venv"*gin3d) ;;
    *) echo "check_play_command: no play command found in README.md ($play)" >&2; exit 1 ;;
esac
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
git -C "$root" ls-files -z --cached --others --exclude-standard \
    | (cd "$root" && xargs -0 cp --parents -t "$scratch" 2>/dev/null || true)
mkdir -p "$scratch/home"
start=$(date +%s)
(
    cd "$scratch"
    env -u DISPLAY -u GIN3D_HOME HOME="$scratch/home" GIN3D_OFFSCREEN=1 \
        GIN3D_EXIT_AFTER_FIRST_FRAME=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
        bash -c "$play" > "$scratch/play.log" 2>&1
) || { tail -40 "$scratch/play.log" >&2; echo "check_play_command: failed" >&2; exit 1; }
if ! grep -q "gin3d: first frame rendered" "$scratch/play.log"; then
    tail -40 "$scratch/play.log" >&2
    echo "check_play_command: the game did not report its first frame" >&2
    exit 1
fi
grep "gin3d: first frame rendered\|gin3d: version" "$scratch/play.log"
echo "check_play_command: $(python3 --version) ($(command -v python3)): install and first frame in $(( $(date +%s) - start )) s"
