import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "./database.ts";
import { migrateToLatest } from "./migrations.ts";

// Issue 21, item 9: DATA_DIR is created 0700 and the SQLite files 0600 (password hashes, the auth secret).

const mode = (file: string) => fs.statSync(file).mode & 0o777;
const roots: string[] = [];
afterEach(() => {
  while (roots.length) fs.rmSync(roots.pop()!, { recursive: true, force: true });
});

describe("the SQLite files on disk", () => {
  it("creates DATA_DIR 0700 and the database, -wal and -shm files 0600, whatever the umask", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-modes-"));
    roots.push(root);
    const dataDir = path.join(root, "data");
    const file = path.join(dataDir, "storefront.sqlite");
    const umask = process.umask(0o022);
    try {
      const database = openDatabase({ engine: "sqlite", file });
      await migrateToLatest(database);
      expect(mode(dataDir)).toBe(0o700);
      for (const name of [file, `${file}-wal`, `${file}-shm`]) expect([name, mode(name)]).toEqual([name, 0o600]);
      await database.close();
    } finally {
      process.umask(umask);
    }
  });

  it("tightens files an older version left readable to others", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-modes-"));
    roots.push(root);
    const file = path.join(root, "storefront.sqlite");
    fs.writeFileSync(file, "");
    fs.chmodSync(file, 0o644);
    const database = openDatabase({ engine: "sqlite", file });
    await migrateToLatest(database);
    expect(mode(file)).toBe(0o600);
    await database.close();
  });
});
