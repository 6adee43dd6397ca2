// A bench's helper server in a process of its own (the raw baseline, the OTLP sink), so that it
// shares an event loop with neither the load generator nor the shop.
import { spawn } from "node:child_process";
import path from "node:path";

export interface HelperProcess {
  /** The address the helper printed as its first line of stdout. */
  url: string;
  /** Ends it (SIGTERM) and resolves once it has exited. */
  stop(): Promise<void>;
}

/** Runs bench/<script> with tsx and waits for the address it prints. */
export async function startHelper(script: string, args: string[] = []): Promise<HelperProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join("bench", script), ...args], { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().split("\n")[0]!.trim()));
    child.once("exit", (code) => reject(new Error(`bench/${script} exited with ${code}`)));
  });
  child.stdout.resume();
  return {
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
