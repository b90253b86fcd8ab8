import type { Response } from "express";

/**
 * Commits a streaming response: status 200, the encoder's content type, and the headers that keep
 * proxies from buffering or transforming the stream (`no-transform` also turns the `compression`
 * middleware off for this response). Headers are flushed at once so the client sees the stream
 * start before the first event, unless `firstEventFollows`: then they go out with that event, in
 * one socket write instead of two.
 */
export function startEventStreamResponse(response: Response, contentType: string, options: { firstEventFollows?: boolean } = {}): void {
  response.status(200);
  response.setHeader("Content-Type", contentType);
  response.setHeader("Cache-Control", "no-cache, no-transform");
  response.setHeader("Connection", "keep-alive");
  response.setHeader("X-Accel-Buffering", "no");
  if (options.firstEventFollows !== true) response.flushHeaders();
}
