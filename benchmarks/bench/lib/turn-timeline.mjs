// Where a warm echo turn's time goes inside one server process (benchmark 6). For each request a
// watched HTTP server takes, it notes when the request arrived, when the process next sent a
// WebSocket message (the turn going to the harness), when it first and last received one before
// the response ended (the harness's first frame and its final idle), and when the response's end
// was called. One turn at a time, as the benchmark drives them. The taps cost every path a little,
// so they are on only between `startTurnTimeline` and `stop()`, and no other figure pays for them.
import { median } from "./common.mjs";

/** The moments of a turn, in ms after its request arrived. */
const milestones = ["sent", "firstFrame", "lastFrame", "ended"];

/**
 * Starts noting turns on `servers` (path name → `http.Server`), with taps on the `ws` classes the
 * process's sockets are made of. `stop()` takes the taps off and returns, per path, the median of
 * each moment and of the spans between them over the turns that reached the harness and ended.
 */
export function startTurnTimeline({ servers, webSocketClasses }) {
  const turns = new Map(Object.keys(servers).map((path) => [path, []]));
  let current;
  const removals = [];

  for (const [path, server] of Object.entries(servers)) {
    const onRequest = (_request, response) => {
      const turn = { arrived: performance.now() };
      current = turn;
      const end = response.end;
      response.end = function endNoted(...args) {
        if (current === turn) {
          turn.ended = performance.now();
          current = undefined;
          turns.get(path).push(turn);
        }
        return end.apply(this, args);
      };
    };
    server.prependListener("request", onRequest);
    removals.push(() => server.off("request", onRequest));
  }

  for (const WebSocketClass of new Set(webSocketClasses)) {
    const { send, emit } = WebSocketClass.prototype;
    WebSocketClass.prototype.send = function sendNoted(...args) {
      if (current !== undefined) current.sent ??= performance.now();
      return send.apply(this, args);
    };
    WebSocketClass.prototype.emit = function emitNoted(event, ...args) {
      if (event === "message" && current?.sent !== undefined) {
        const at = performance.now();
        current.firstFrame ??= at;
        current.lastFrame = at;
      }
      return emit.call(this, event, ...args);
    };
    removals.push(() => {
      WebSocketClass.prototype.send = send;
      WebSocketClass.prototype.emit = emit;
    });
  }

  return {
    stop() {
      for (const remove of removals.splice(0)) remove();
      current = undefined;
      return Object.fromEntries([...turns].map(([path, noted]) => [path, summaryOf(noted)]));
    },
  };
}

/** Medians over the turns that have every moment: each moment after the request, and the spans between them. */
function summaryOf(noted) {
  const complete = noted.filter((turn) => milestones.every((name) => turn[name] !== undefined));
  const medianOf = (span) => (complete.length === 0 ? undefined : median(complete.map(span)));
  return {
    turns: complete.length,
    sentMs: medianOf((turn) => turn.sent - turn.arrived),
    firstFrameMs: medianOf((turn) => turn.firstFrame - turn.arrived),
    lastFrameMs: medianOf((turn) => turn.lastFrame - turn.arrived),
    endedMs: medianOf((turn) => turn.ended - turn.arrived),
    harnessReactionMs: medianOf((turn) => turn.firstFrame - turn.sent),
    lastFrameToEndMs: medianOf((turn) => turn.ended - turn.lastFrame),
  };
}
