// The Lua scripts of the Redis thread store: each is one atomic step on a thread's record, a hash
// (`<prefix>:record:<agent>:<thread>`) whose fields are the thread's whole state:
//   record      the conversation, fingerprints, tool contract, summary (JSON, record-policy.ts)
//   transcript  the transcript for `connect` (JSON)
//   owner       the principal that owns it
//   holder      the replica holding its live session (the lease)
//   fence       the lease's fencing token: it grows with every acquisition
// A replica is alive while its heartbeat key (`<prefix>:replica:<id>`) exists. Every write of the
// hash refreshes its time to live: a thread expires whole. Owners' thread lists are sorted sets
// (`<prefix>:owner-threads:<agent>:<sha1 of the owner>`, thread digest scored by last activity).

/**
 * Writes one field of the record (`record` or `transcript`), fenced: with a token, only while this
 * replica holds the lease with it (0 otherwise: a stale holder's write is refused). A `record` write
 * also moves the thread up its owner's list.
 * KEYS[1] record hash. ARGV: field, value, ttl ms, fence ('' for none), replica id, owner-list key
 * prefix, thread digest, now.
 */
export const WRITE_FIELD_SCRIPT = `
if ARGV[4] ~= '' then
  if redis.call('HGET', KEYS[1], 'holder') ~= ARGV[5] or redis.call('HGET', KEYS[1], 'fence') ~= ARGV[4] then return 0 end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
if ARGV[1] == 'record' then
  local owner = redis.call('HGET', KEYS[1], 'owner')
  if owner then
    local list = ARGV[6] .. redis.sha1hex(owner)
    redis.call('ZADD', list, ARGV[8], ARGV[7])
    redis.call('PEXPIRE', list, ARGV[3])
  end
end
return 1
`;

/**
 * Claims the thread for an owner, or says whose it is; a use keeps the ownership alive.
 * KEYS[1] record hash. ARGV: owner, ttl ms, owner-list key prefix, thread digest, now, list cap.
 */
export const CLAIM_SCRIPT = `
local current = redis.call('HGET', KEYS[1], 'owner')
if current and current ~= ARGV[1] then return 'refused' end
local list = ARGV[3] .. redis.sha1hex(ARGV[1])
if not current then redis.call('HSET', KEYS[1], 'owner', ARGV[1]) end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('ZADD', list, ARGV[5], ARGV[4])
redis.call('ZREMRANGEBYRANK', list, 0, -(tonumber(ARGV[6]) + 1))
redis.call('PEXPIRE', list, ARGV[2])
if current then return 'owned' end
return 'claimed'
`;

/**
 * Undoes a claim, only while the thread has no record yet (its first run was refused).
 * KEYS[1] record hash, KEYS[2] the owner's list. ARGV: owner, thread digest.
 */
export const RELEASE_CLAIM_SCRIPT = `
if redis.call('HGET', KEYS[1], 'owner') == ARGV[1] and redis.call('HEXISTS', KEYS[1], 'record') == 0 then
  redis.call('HDEL', KEYS[1], 'owner')
  redis.call('ZREM', KEYS[2], ARGV[2])
end
return 0
`;

/**
 * The newest threads of an owner's list, with their record and owner; threads gone are dropped
 * from the list. KEYS[1] the owner's list. ARGV: limit, record key prefix.
 */
export const LIST_SCRIPT = `
local threads = redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
local found = {}
for _, thread in ipairs(threads) do
  local fields = redis.call('HMGET', ARGV[2] .. thread, 'record', 'owner')
  if fields[1] then
    found[#found + 1] = thread
    found[#found + 1] = fields[1]
    found[#found + 1] = fields[2] or ''
  elseif not fields[2] then
    redis.call('ZREM', KEYS[1], thread)
  end
end
return found
`;

/**
 * Takes the lease unless a live other replica holds it; every acquisition gets a new fencing token.
 * Refused, it names the holder and its heartbeat's value (which changes with each beat: a waiting
 * replica tells a holder that still beats from one that is gone). -1: this replica's own heartbeat
 * is missing (it must beat first: another replica may count it as gone).
 * KEYS[1] record hash. ARGV: replica id, ttl ms, replica key prefix.
 */
export const ACQUIRE_SCRIPT = `
if redis.call('EXISTS', ARGV[3] .. ARGV[1]) == 0 then return {-1} end
local holder = redis.call('HGET', KEYS[1], 'holder')
if holder and holder ~= ARGV[1] then
  local beat = redis.call('GET', ARGV[3] .. holder)
  if beat then return {0, holder, beat} end
end
local fence = redis.call('HINCRBY', KEYS[1], 'fence', 1)
redis.call('HSET', KEYS[1], 'holder', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if holder and holder ~= ARGV[1] then return {1, fence, holder} end
return {1, fence, ''}
`;

/**
 * 1 when this replica still holds the lease with this token and is alive (its heartbeat exists).
 * KEYS[1] record hash. ARGV: replica id, fence, replica key prefix, ttl ms.
 */
export const CONFIRM_SCRIPT = `
if redis.call('HGET', KEYS[1], 'holder') == ARGV[1] and redis.call('HGET', KEYS[1], 'fence') == ARGV[2] and redis.call('EXISTS', ARGV[3] .. ARGV[1]) == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  return 1
end
return 0
`;

/** Releases the lease if this replica holds it with this token. KEYS[1] record hash. ARGV: replica id, fence. */
export const RELEASE_SCRIPT = `
if redis.call('HGET', KEYS[1], 'holder') == ARGV[1] and redis.call('HGET', KEYS[1], 'fence') == ARGV[2] then return redis.call('HDEL', KEYS[1], 'holder') end
return 0
`;

/** The live replica holding the lease, or nothing. KEYS[1] record hash. ARGV: replica key prefix. */
export const HOLDER_SCRIPT = `
local holder = redis.call('HGET', KEYS[1], 'holder')
if holder and redis.call('EXISTS', ARGV[1] .. holder) == 1 then return holder end
return false
`;
