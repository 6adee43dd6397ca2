import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DiskCache } from "../images/disk-cache.ts";
import { makePrivateDirectory } from "../private-files.ts";
import { memoryLogger } from "../../test/support/logger.ts";
import { openDatabase } from "./database.ts";
import { migrateToLatest } from "./migrations.ts";

// DATA_DIR is 0700 and the SQLite files 0600 (password hashes, the auth secret), also when DATA_DIR existed before.

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

  it("makes a DATA_DIR that already existed at 0755 private (0700)", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-modes-"));
    roots.push(dataDir);
    fs.chmodSync(dataDir, 0o755);
    const file = path.join(dataDir, "storefront.sqlite");
    const database = openDatabase({ engine: "sqlite", file });
    await migrateToLatest(database);
    expect(mode(dataDir)).toBe(0o700);
    for (const name of [file, `${file}-wal`, `${file}-shm`]) expect([name, mode(name)]).toEqual([name, 0o600]);
    await database.close();
  });

  it("leaves a shared folder (sticky bit, like /tmp) as it is", () => {
    const shared = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-modes-"));
    roots.push(shared);
    fs.chmodSync(shared, 0o1777);
    expect(makePrivateDirectory(shared)).toEqual({ ok: false, reason: `${shared} is a shared folder (sticky bit), left as it is` });
    expect(fs.statSync(shared).mode & 0o7777).toBe(0o1777);
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

describe("the image cache on disk", () => {
  it("writes its files 0600 in a folder it makes 0700, whatever the umask", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-modes-"));
    roots.push(root);
    const dir = path.join(root, "image-cache");
    const umask = process.umask(0o022);
    try {
      const cache = new DiskCache({ dir, maxBytes: 1_000_000, log: memoryLogger().log });
      await cache.write("photo.webp", Buffer.from("image"));
      expect(mode(dir)).toBe(0o700);
      expect(mode(path.join(dir, "photo.webp"))).toBe(0o600);
    } finally {
      process.umask(umask);
    }
  });
});
