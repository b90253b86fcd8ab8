import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** A real MCP server (MCP SDK, tools `add_numbers`, `shout_text`, `report_failure`, `crash_server`); run it with node. */
export const mcpTestServerPath = fileURLToPath(new URL("./mcp/test-mcp-server.mjs", import.meta.url));

export interface HttpMcpTestServer {
  /** The streamable HTTP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  readonly child: ChildProcess;
  /** Ends the server (stdin EOF, then SIGKILL after 2 s) and waits for it to exit. Idempotent. */
  close(): Promise<void>;
}

/** Starts the test MCP server over streamable HTTP in a child process and waits for its URL. */
export async function startHttpMcpTestServer(options: { name?: string } = {}): Promise<HttpMcpTestServer> {
  const child = spawn(process.execPath, [mcpTestServerPath, "--http", "--name", options.name ?? "test-mcp"], { stdio: ["pipe", "pipe", "inherit"] });
  const exited = once(child, "exit").then(() => undefined);
  const lines = createInterface({ input: child.stdout! });
  const [line] = (await Promise.race([once(lines, "line"), exited.then(() => { throw new Error("the HTTP MCP test server exited before listening"); })])) as [string];
  lines.close();
  const { url } = JSON.parse(line) as { url: string };
  let closing: Promise<void> | undefined;
  return {
    url,
    child,
    close: () => {
      closing ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.stdin!.end();
        const timer = setTimeout(() => child.kill("SIGKILL"), 2_000);
        await exited;
        clearTimeout(timer);
      })();
      return closing;
    },
  };
}
