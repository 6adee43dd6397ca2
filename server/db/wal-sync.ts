import fs from "node:fs";
import path from "node:path";

/** Makes what SQLite has committed so far durable; `close` once the database is closed. */
export interface LogSync {
  sync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The fdatasync of SQLite's write-ahead log (`<file>-wal`) on libuv's thread pool (SQLite's own
 * sync of it on Linux), for a database in WAL mode with `synchronous=NORMAL`: SQLite writes the
 * log at each commit and syncs it at checkpoints, and this sync after each commit makes it what
 * `synchronous=FULL` is. The log is opened at the first sync (SQLite creates it with the first
 * write), and its folder is synced then too, so the new file's name is on disk as well.
 */
export function walSync(file: string): LogSync {
  let log: Promise<fs.promises.FileHandle> | null = null;
  const open = async () => {
    const handle = await fs.promises.open(`${file}-wal`, "r+");
    const folder = await fs.promises.open(path.dirname(file), "r");
    try {
      await folder.sync();
    } finally {
      await folder.close();
    }
    return handle;
  };
  return {
    async sync() {
      log ??= open();
      // A failed open is tried again at the next sync.
      await log.then((handle) => handle.datasync(), (error: unknown) => {
        log = null;
        throw error;
      });
    },
    async close() {
      const handle = await log?.catch(() => null);
      log = null;
      await handle?.close();
    },
  };
}
