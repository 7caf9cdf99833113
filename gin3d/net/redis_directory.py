"""The directory of many relay nodes, in one Redis (``gin3d-relay --redis URL``).

Each node writes ``node:<id>`` (its address) with a short TTL and renews it every third of
that; a booking names its node, and a booking on a node whose key is gone is stale: the next
node that meets it takes its place, so a dead node's peers can register again elsewhere at
once. Every check-and-change is one Lua script (atomic in Redis): two peers that book the
two sides of one key on two nodes at the same moment cannot both wait; the second is sent
to the first one's node. Keys renewed by their node expire when it dies: bookings after
``entry_ttl``, open tables after ``table_grace`` (long enough for the host to register again
through another node, which keeps the table's waiting time). One Redis, not a cluster: the
scripts read keys they are not given (the partner's node).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Callable

from .directory import (
    BOOKED,
    CLAIM_S,
    TOO_MANY_HERE,
    Booked,
    DirectoryError,
    Table,
    fair_order,
    new_node_id,
)
from .relay_metrics import Histogram, timed

P = "gin3d:"  # every key this service writes starts with it
LIST_FRESH_S = 0.25  # a node answers lists from one read of all tables for this long
NODE = P + "node:"

_NODE_OF = """
local function node_of(rec)
  if not rec then return nil end
  local sp = string.find(rec, ' ', 1, true)
  return string.sub(rec, 1, sp - 1), string.sub(rec, sp + 1)
end
local function live_elsewhere(rec)
  local nid, where = node_of(rec)
  -- a booking of an older node at our own address (a restart) is stale too
  if nid and nid ~= ARGV[1] and where ~= ARGV[2] and redis.call('EXISTS', ARGV[5] .. nid) == 1 then
    return where
  end
  return nil
end
"""

# KEYS: own booking, the partner's booking, the room; ARGV: node, address, ttl ms, host?, NODE
_BOOK = (
    _NODE_OF
    + """
local partner = redis.call('GET', KEYS[2])
local where = live_elsewhere(partner)
if where then return where end
if partner then redis.call('DEL', KEYS[2]) end
where = live_elsewhere(redis.call('GET', KEYS[1]))
if where then return where end
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. ARGV[2], 'PX', ARGV[3])
if ARGV[4] ~= '' then
  redis.call('SADD', KEYS[3], ARGV[4])
  redis.call('PEXPIRE', KEYS[3], ARGV[3])
end
return ''
"""
)

# KEYS: own booking, the room; ARGV: node, verifier (or '' for a guest)
_UNBOOK = """
local rec = redis.call('GET', KEYS[1])
if rec and string.sub(rec, 1, #ARGV[1] + 1) == ARGV[1] .. ' ' then
  redis.call('DEL', KEYS[1])
  if ARGV[2] ~= '' then redis.call('SREM', KEYS[2], ARGV[2]) end
end
"""

# KEYS: a host's published addresses; ARGV: node (only this node's own record goes)
_UNPUBLISH = """
local rec = redis.call('GET', KEYS[1])
if rec and string.sub(rec, 1, #ARGV[1] + 1) == ARGV[1] .. ' ' then redis.call('DEL', KEYS[1]) end
"""

# KEYS: the room; ARGV: prefix of hosts' bookings, NODE
_HOSTS_IN = """
local out = {}
for _, v in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local rec = redis.call('GET', ARGV[1] .. v)
  local nid = rec and string.sub(rec, 1, string.find(rec, ' ', 1, true) - 1)
  if nid and redis.call('EXISTS', ARGV[2] .. nid) == 1 then
    table.insert(out, v)
    table.insert(out, nid)
  else
    redis.call('SREM', KEYS[1], v)
  end
end
return out
"""

# KEYS: the address's slots; ARGV: cap, token, NODE. Tokens of dead nodes are swept only
# when the cap is reached, so a take stays one ZCARD in the common case.
_TAKE_SLOT = """
local cap = tonumber(ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= cap then
  for _, m in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
    local nid = string.sub(m, 1, string.find(m, ':', 1, true) - 1)
    if redis.call('EXISTS', ARGV[3] .. nid) == 0 then redis.call('ZREM', KEYS[1], m) end
  end
  if redis.call('ZCARD', KEYS[1]) >= cap then return 0 end
end
redis.call('ZADD', KEYS[1], 0, ARGV[2])
redis.call('EXPIRE', KEYS[1], 86400)
return 1
"""

# A token bucket (limits.Budget) on Redis's clock. KEYS: the bucket; ARGV: burst, seconds
# per try, '1' to spend one (if there is one), '2' to give one back. Returns the tries left
# before, as text: check and spend are one step, so simultaneous tries cannot overspend.
_BUDGET = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
local burst, every = tonumber(ARGV[1]), tonumber(ARGV[2])
local v = redis.call('HMGET', KEYS[1], 'l', 't')
local level = burst
if v[1] then level = math.min(burst, tonumber(v[1]) + (now - tonumber(v[2])) / every) end
if ARGV[3] == '1' and level >= 1 then
  redis.call('HSET', KEYS[1], 'l', tostring(level - 1), 't', tostring(now))
  redis.call('PEXPIRE', KEYS[1], math.ceil((burst - level + 1) * every * 1000) + 1000)
elseif ARGV[3] == '2' and v[1] then
  local back = math.min(burst, level + 1)
  redis.call('HSET', KEYS[1], 'l', tostring(back), 't', tostring(now))
  redis.call('PEXPIRE', KEYS[1], math.ceil((burst - back + 1) * every * 1000) + 1000)
end
return tostring(level)
"""

# KEYS: table, owner by address, owner by fingerprint, tables of the preset, all tables,
# the tables of the owner's network; ARGV: id, grace ms, name, preset, target, code,
# fingerprint, owner address, table prefix, the network's cap, the network, refusal
_OPEN_TABLE = """
for i = 2, 3 do
  local held = redis.call('GET', KEYS[i])
  if held and held ~= ARGV[1] and redis.call('EXISTS', ARGV[9] .. held) == 1 then
    return 'you already have an open table'
  end
end
if redis.call('SISMEMBER', KEYS[6], ARGV[1]) == 0 then
  for _, m in ipairs(redis.call('SMEMBERS', KEYS[6])) do
    if redis.call('EXISTS', ARGV[9] .. m) == 0 then redis.call('SREM', KEYS[6], m) end
  end
  if redis.call('SCARD', KEYS[6]) >= tonumber(ARGV[10]) then return ARGV[12] end
end
redis.call('SADD', KEYS[6], ARGV[1])
redis.call('PEXPIRE', KEYS[6], ARGV[2])
local t = redis.call('TIME')
local since = redis.call('HGET', KEYS[1], 'since') or (t[1] .. '.' .. string.format('%06d', t[2]))
redis.call('HSET', KEYS[1], 'name', ARGV[3], 'preset', ARGV[4], 'target', ARGV[5],
  'code', ARGV[6], 'fingerprint', ARGV[7], 'owner', ARGV[8], 'since', since, 'net', ARGV[11])
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
redis.call('SET', KEYS[3], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[4], since, ARGV[1])
redis.call('ZADD', KEYS[5], since, ARGV[1])
return ''
"""

# KEYS: table, all tables; ARGV: id, prefix of preset lists, prefix of owners, of networks
_CLOSE_TABLE = """
local f = redis.call('HMGET', KEYS[1], 'preset', 'owner', 'fingerprint', 'net')
if f[1] then redis.call('ZREM', ARGV[2] .. f[1], ARGV[1]) end
if f[4] then redis.call('SREM', ARGV[4] .. f[4], ARGV[1]) end
redis.call('ZREM', KEYS[2], ARGV[1])
for i = 2, 3 do
  if f[i] and redis.call('GET', ARGV[3] .. f[i]) == ARGV[1] then
    redis.call('DEL', ARGV[3] .. f[i])
  end
end
redis.call('DEL', KEYS[1])
"""

# KEYS: a table list; ARGV: table prefix, claim ms (0: list only), the asker's own table.
# Returns the Redis time, then id and fields of every open table nobody was given in the
# claim time, oldest first; claiming, only the first (not the asker's own), marked given.
_TABLES = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
local out = {tostring(now)}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local f = redis.call('HGETALL', ARGV[1] .. id)
  if #f == 0 then
    redis.call('ZREM', KEYS[1], id)
  elseif id ~= ARGV[3] and tonumber(redis.call('HGET', ARGV[1] .. id, 'claimed') or '0') <= now then
    table.insert(out, id)
    table.insert(out, f)
    if ARGV[2] ~= '0' then
      redis.call('HSET', ARGV[1] .. id, 'claimed', tostring(now + tonumber(ARGV[2]) / 1000))
      return out
    end
  end
end
return out
"""


class RedisDirectory:
    """``directory.Directory`` on Redis (see the module docstring)."""

    mode = "redis"

    def __init__(
        self,
        url: str,
        node_ttl: float = 6.0,
        entry_ttl: float = 60.0,
        table_grace: float = 60.0,
        max_connections: int = 64,
    ) -> None:
        try:
            import redis.asyncio as aioredis
        except ImportError:  # the extra is not installed
            raise DirectoryError(
                "--redis needs the redis package: pip install 'gin3d[service]'"
            ) from None
        self._errors = aioredis.RedisError
        pool = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=max_connections, timeout=10, decode_responses=True
        )
        self.redis = aioredis.Redis(connection_pool=pool)
        self.node_id = new_node_id()
        self.address = ""
        self.node_ttl, self.entry_ttl, self.table_grace = node_ttl, entry_ttl, table_grace
        self._scripts = {
            name: self.redis.register_script(src)
            for name, src in (
                ("book", _BOOK),
                ("unbook", _UNBOOK),
                ("unpublish", _UNPUBLISH),
                ("hosts_in", _HOSTS_IN),
                ("take_slot", _TAKE_SLOT),
                ("budget", _BUDGET),
                ("open_table", _OPEN_TABLE),
                ("close_table", _CLOSE_TABLE),
                ("tables", _TABLES),
            )
        }
        self._serial = itertools.count()
        self._tokens: dict[tuple[str, str], list[str]] = {}  # slots this node holds
        self._renew: dict[str, list[tuple[str, float]]] = {}  # what -> (key, ttl) to renew
        self._tasks: list[asyncio.Task] = []
        self._pubsub = None
        self.latency = Histogram()  # seconds each script's round trip took
        self._lists: dict[str | None, tuple[float, list[Table]]] = {}  # preset -> read at, order

    async def _script(self, name: str, keys: list[str], args: list):
        took = timed()
        try:
            answer = await self._scripts[name](keys=keys, args=args)
        except self._errors as exc:
            raise DirectoryError(f"the service's directory is unreachable: {exc}") from None
        self.latency.observe(took())
        return answer

    async def ping(self) -> float:
        took = timed()
        try:
            await self.redis.ping()
        except self._errors as exc:
            raise DirectoryError(f"the service's directory is unreachable: {exc}") from None
        seconds = took()
        self.latency.observe(seconds)
        return seconds

    # -- the node ------------------------------------------------------------------------
    async def start(self, address: str, on_miss: Callable[[str], None]) -> None:
        self.address = address
        try:
            await self._beat()
            self._pubsub = self.redis.pubsub()
            await self._pubsub.subscribe(f"{P}miss:{self.node_id}")
        except self._errors as exc:
            raise DirectoryError(f"cannot reach Redis: {exc}") from None
        self._tasks = [
            asyncio.ensure_future(self._heartbeat()),
            asyncio.ensure_future(self._listen(on_miss)),
        ]

    async def _beat(self) -> None:
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(NODE + self.node_id, self.address, px=int(self.node_ttl * 1000))
        for held in list(self._renew.values()):
            for key, ttl in held:
                pipe.pexpire(key, int(ttl * 1000))
        await pipe.execute()

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(self.node_ttl / 3)
            with contextlib.suppress(self._errors, OSError):  # Redis back later: beat again
                await self._beat()

    async def _listen(self, on_miss: Callable[[str], None]) -> None:
        while True:
            try:
                message = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=1)
            except (self._errors, OSError):
                await asyncio.sleep(1)
                continue
            if message and isinstance(message.get("data"), str):
                on_miss(message["data"])

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        with contextlib.suppress(self._errors, OSError):
            if self._pubsub is not None:
                await self._pubsub.aclose()
            await self.redis.delete(NODE + self.node_id)  # our bookings are stale at once
        with contextlib.suppress(self._errors, OSError):
            await self.redis.aclose()

    # -- limits --------------------------------------------------------------------------
    async def take_slot(self, kind: str, address: str, cap: int) -> bool:
        token = f"{self.node_id}:{next(self._serial)}"
        ok = await self._script("take_slot", [f"{P}slots:{kind}:{address}"], [cap, token, NODE])
        if ok:
            self._tokens.setdefault((kind, address), []).append(token)
        return bool(ok)

    async def give_slot(self, kind: str, address: str) -> None:
        tokens = self._tokens.get((kind, address))
        if not tokens:
            return
        token = tokens.pop()
        if not tokens:
            del self._tokens[(kind, address)]
        try:
            await self.redis.zrem(f"{P}slots:{kind}:{address}", token)
        except self._errors as exc:
            raise DirectoryError(f"the service's directory is unreachable: {exc}") from None

    async def _budget(self, name: str, key: str, rate: tuple[int, float], spend: str) -> float:
        left = await self._script("budget", [f"{P}budget:{name}:{key}"], [*rate, spend])
        return float(left)

    async def budget_left(self, name: str, key: str, rate: tuple[int, float]) -> float:
        return await self._budget(name, key, rate, "0")

    async def spend(self, name: str, key: str, rate: tuple[int, float]) -> None:
        await self._budget(name, key, rate, "1")

    async def take(self, name: str, key: str, rate: tuple[int, float]) -> bool:
        return await self._budget(name, key, rate, "1") >= 1.0

    async def refund(self, name: str, key: str, rate: tuple[int, float]) -> None:
        await self._budget(name, key, rate, "2")

    # -- bookings ------------------------------------------------------------------------
    async def book(self, role: str, room: str, key: str) -> Booked:
        other = "guest" if role == "host" else "host"
        mine, room_key = f"{P}wait:{role}:{key}", f"{P}room:{room}"
        args = [self.node_id, self.address, int(self.entry_ttl * 1000)]
        verifier = key if role == "host" else ""
        where = await self._script(
            "book", [mine, f"{P}wait:{other}:{key}", room_key], [*args, verifier, NODE]
        )
        if where:
            return Booked("redirect", where)
        held = [(mine, self.entry_ttl)] + ([(room_key, self.entry_ttl)] if verifier else [])
        self._renew[mine] = held
        return BOOKED

    async def unbook(self, role: str, room: str, key: str) -> None:
        mine = f"{P}wait:{role}:{key}"
        self._renew.pop(mine, None)
        verifier = key if role == "host" else ""
        await self._script("unbook", [mine, f"{P}room:{room}"], [self.node_id, verifier])

    async def hosts_in(self, room: str) -> list[tuple[str, str]]:
        flat = await self._script("hosts_in", [f"{P}room:{room}"], [f"{P}wait:host:", NODE])
        return list(zip(flat[::2], flat[1::2]))

    async def tell_miss(self, node_id: str, verifier: str) -> None:
        try:
            await self.redis.publish(f"{P}miss:{node_id}", verifier)
        except self._errors as exc:
            raise DirectoryError(f"the service's directory is unreachable: {exc}") from None

    # -- a waiting host's direct addresses: "<node> <address> ...", renewed with it -------
    async def publish(self, verifier: str, direct: list[str]) -> None:
        key = f"{P}direct:{verifier}"
        record = " ".join([self.node_id, *direct])
        try:
            await self.redis.set(key, record, px=int(self.entry_ttl * 1000))
        except self._errors as exc:
            raise DirectoryError(f"the service's directory is unreachable: {exc}") from None
        self._renew[key] = [(key, self.entry_ttl)]

    async def unpublish(self, verifier: str) -> None:
        key = f"{P}direct:{verifier}"
        self._renew.pop(key, None)
        await self._script("unpublish", [key], [self.node_id])

    async def published(self, verifier: str) -> list[str]:
        try:
            record = await self.redis.get(f"{P}direct:{verifier}")
        except self._errors as exc:
            raise DirectoryError(f"the service's directory is unreachable: {exc}") from None
        return record.split()[1:] if isinstance(record, str) else []

    # -- public tables -------------------------------------------------------------------
    async def open_table(self, table: Table, owner: str, network: str, cap: int) -> str:
        keys = [
            f"{P}table:{table.table_id}",
            f"{P}owner:{owner}",
            f"{P}owner:{table.fingerprint}",
            f"{P}tables:{table.preset}",
            f"{P}tables:",
            f"{P}net:{network}",
        ]
        f = table.fields()
        why = await self._script(
            "open_table",
            keys,
            [
                table.table_id,
                int(self.table_grace * 1000),
                *(f[k] for k in ("name", "preset", "target", "code", "fingerprint")),
                owner,
                f"{P}table:",
                cap,
                network,
                TOO_MANY_HERE,
            ],
        )
        self._lists.clear()
        if not why:
            held = [*keys[:3], keys[5]]
            self._renew[keys[0]] = [(k, self.table_grace) for k in held]
        return why

    async def close_table(self, table_id: str) -> None:
        self._lists.clear()
        key = f"{P}table:{table_id}"
        self._renew.pop(key, None)
        await self._script(
            "close_table",
            [key, f"{P}tables:"],
            [table_id, f"{P}tables:", f"{P}owner:", f"{P}net:"],
        )

    async def _tables(self, preset: str | None, claim: float, skip: str) -> list:
        flat = await self._script(
            "tables", [f"{P}tables:{preset or ''}"], [f"{P}table:", int(claim * 1000), skip]
        )
        found = []
        for table_id, pairs in zip(flat[1::2], flat[2::2]):
            data = dict(zip(pairs[::2], pairs[1::2]))
            with contextlib.suppress(KeyError, ValueError):
                found.append((Table.from_fields(table_id, data), data.get("net", "")))
        return found

    async def tables(self, preset: str | None, offset: int, count: int) -> tuple[list, int]:
        """A page of ``fair_order``. Ordering needs every open table, so the order read is
        kept ``LIST_FRESH_S`` (many players paging and refreshing cost one read), and
        dropped when this node opens, closes or hands out a table."""
        read_at, shown = self._lists.get(preset, (0.0, []))
        now = asyncio.get_running_loop().time()
        if now - read_at > LIST_FRESH_S:
            shown = fair_order(await self._tables(preset, 0, ""))
            self._lists[preset] = (now, shown)
        return shown[offset : offset + count], len(shown)

    async def claim_table(self, preset: str, skip: str = "") -> Table | None:
        self._lists.clear()
        found = await self._tables(preset, CLAIM_S, skip)
        return found[0][0] if found else None
