#!/usr/bin/env bash
# The online service without Docker: one Redis and NODES gin3d-relay nodes sharing it, on
# this machine, in the foreground. Ctrl-C (or SIGTERM) stops them all; so does any one of
# them ending. (docs/net.md, "Running a node"; with Docker: docker-compose.yml.)
#
#   deploy/run-service.sh [NODES] [FIRST_PORT]          # defaults: 2 nodes, 47471, 47472...
#
# Environment:
#   HOST           where the nodes listen (default 127.0.0.1; 0.0.0.0 serves everyone)
#   PUBLIC_HOST    the name players reach this machine by (default HOST): a node sends a
#                  guest to the node where its host waits, at the address it advertises
#   REDIS_PORT     Redis's port on 127.0.0.1 (default 6379; Redis never listens outside)
#   METRICS_FIRST  the first node's /healthz and /metrics port on 127.0.0.1 (default 9471)
#   RELAY          the node's command (default gin3d-relay)
set -euo pipefail
nodes=${1:-2}
first=${2:-47471}
host=${HOST:-127.0.0.1}
public=${PUBLIC_HOST:-$host}
redis_port=${REDIS_PORT:-6379}
metrics=${METRICS_FIRST:-9471}
read -r -a relay <<< "${RELAY:-gin3d-relay}"

pids=()
stop() {
    trap - EXIT INT TERM
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait || true
}
trap stop EXIT INT TERM

# nothing worth keeping: bookings, open tables and counters all expire by themselves
redis-server --bind 127.0.0.1 --port "$redis_port" --save "" --appendonly no &
pids+=($!)
for ((i = 0; i < nodes; i++)); do
    port=$((first + i))
    "${relay[@]}" --host "$host" --port "$port" --redis "redis://127.0.0.1:$redis_port/0" \
        --advertise "$public:$port" --metrics-port $((metrics + i)) &
    pids+=($!)
done
echo "gin3d service: Redis on 127.0.0.1:$redis_port, $nodes nodes from $host:$first" >&2
wait -n  # the first to end ends the service
