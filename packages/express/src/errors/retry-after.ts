/**
 * The `Retry-After` (seconds) sent with an agent's refusal that says the server or the caller is
 * at a limit for now: a client, a proxy or a load balancer can wait that long, or try elsewhere,
 * instead of retrying at once. Refusals of what was sent (4xx) and of what cannot recover by
 * waiting get none.
 */
const RETRY_AFTER_SECONDS: Readonly<Record<string, number>> = {
  RATE_LIMITED: 1,
  CAPACITY_EXHAUSTED: 5,
  SESSION_LIMIT: 5,
  SPAWN_BACKOFF: 5,
  // The thread lives on another replica that is alive: a retry a moment later may reach it (a load
  // balancer that retries on 503 sends it on), or find it gone and take the thread over.
  THREAD_ELSEWHERE: 1,
};

export function retryAfterSecondsFor(code: string): number | undefined {
  return Object.hasOwn(RETRY_AFTER_SECONDS, code) ? RETRY_AFTER_SECONDS[code] : undefined;
}
