import type WebSocket from "ws";

/**
 * Pings a conversation's WebSocket every `intervalMs`; a ping not answered by the next one closes
 * the socket (a wedged harness), which the conversation then reports as a lost connection.
 */
export class SocketLiveness {
  readonly #socket: WebSocket;
  readonly #onDead: () => void;
  readonly #timer: NodeJS.Timeout | undefined;
  #pongPending = false;

  constructor(socket: WebSocket, intervalMs: number | false, onDead: () => void) {
    this.#socket = socket;
    this.#onDead = onDead;
    socket.on("pong", () => {
      this.#pongPending = false;
    });
    if (intervalMs !== false) {
      this.#timer = setInterval(() => this.#check(), intervalMs);
      this.#timer.unref();
    }
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  #check(): void {
    if (this.#socket.readyState !== this.#socket.OPEN) return;
    if (this.#pongPending) {
      this.#onDead();
      this.#socket.terminate();
      return;
    }
    this.#pongPending = true;
    this.#socket.ping();
  }
}
