import { connect } from "node:net";

/** True when something accepts a TCP connection on `host:port` now (a server still listening there). */
export function portAccepts(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
