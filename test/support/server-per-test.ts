import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";
import { type RunningServer, startServer } from "./server-process.ts";

/**
 * Starts the built server for one test on a DATA_DIR of its own (made first, at `dataDirMode` when
 * given, as an operator's folder may be); after each test the process is killed and the folder removed.
 */
export function serverPerTest(prefix: string) {
  let server: RunningServer | null = null;
  let dataDir = "";
  afterEach(async () => {
    await server?.stop("SIGKILL");
    server = null;
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    dataDir = "";
  });
  return async (env: Record<string, string | undefined> = {}, dataDirMode?: number): Promise<{ server: RunningServer; dataDir: string }> => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    if (dataDirMode !== undefined) fs.chmodSync(dataDir, dataDirMode);
    server = await startServer({ DATA_DIR: dataDir, ...env });
    return { server, dataDir };
  };
}
