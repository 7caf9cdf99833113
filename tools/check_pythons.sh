#!/usr/bin/env bash
# Runs the test suite on other Pythons, each in a fresh virtual environment holding the lock
# (requirements-test.txt), the way the README's test command does on one:
#   tools/check_pythons.sh python3.10 python3.12 python3.13
# The player's-eye suite and the packaged-build test are left out (CI runs both on the
# README's Python; the build is made with Python 3.11, the Python its Panda3D runtime has).
# Prints one line per Python: its version, the pytest summary, the minutes taken.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
status=0
for python in "$@"; do
    venv=$(mktemp -d)
    start=$(date +%s)
    version=$("$python" -c 'import platform; print(platform.python_version())')
    if "$python" -m venv "$venv" \
        && "$venv/bin/pip" install -q --disable-pip-version-check \
            -c "$root/requirements-test.txt" -e "$root[test]" >"$venv/install.log" 2>&1; then
        (cd "$root" && "$venv/bin/python" -m pytest -q -p no:cacheprovider -rf \
            --ignore=tests/test_player_flows.py --ignore=tests/test_player_soak.py \
            --ignore=tests/test_ship_build.py \
            >"$venv/pytest.log" 2>&1)
        grep "^FAILED\|^ERROR" "$venv/pytest.log" | sed "s/^/  Python $version: /"
        summary=$(grep -E "[0-9]+ (passed|failed).* in " "$venv/pytest.log" | tail -1)
        case "$summary" in *failed*|*error*|"") status=1 ;; esac
    else
        summary="install failed: $(tail -3 "$venv/install.log")"
        status=1
    fi
    echo "Python $version: $summary ($(( ($(date +%s) - start) / 60 )) min)"
    rm -rf "$venv"
done
exit $status
