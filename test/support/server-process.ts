import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

/** The compiled server that `npm run build` writes and `npm start` runs. */
const SERVER = path.resolve("build/node/main.js");

export interface RunningServer {
  url: string;
  process: ChildProcess;
  /** Every JSON log line so far. */
  logs: Array<Record<string, unknown>>;
  /** Sends the signal and resolves with the exit code once the process has ended. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts the compiled server as `npm start` does (production, the built app) on a free port. It waits for
 * the "listening" log line, so LOG_LEVEL must stay at info or below. A variable given as undefined is not set. */
export async function startServer(env: Record<string, string | undefined>, timeoutMs = 20_000): Promise<RunningServer> {
  const child = spawn(process.execPath, ["--enable-source-maps", SERVER], {
    env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logs: Array<Record<string, unknown>> = [];
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not start within ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    let buffered = "";
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        if (!line.trim()) continue;
        const record = JSON.parse(line) as Record<string, unknown>;
        logs.push(record);
        if (record.msg === "Storefront is listening") {
          clearTimeout(timer);
          resolve(String(record.url));
        }
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening: ${stderr}`));
    });
  });
  return {
    url,
    process: child,
    logs,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
