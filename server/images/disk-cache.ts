import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Logger } from "../log.ts";

export interface DiskCacheOptions {
  dir: string;
  /** The most the files may take together; the least recently used go first beyond it. */
  maxBytes: number;
  log: Logger;
}

/**
 * Files under one directory, bounded in total size, least recently used evicted first. The index of
 * names and sizes lives in memory, rebuilt from the directory on first use (oldest modification
 * first), so a restart keeps what is on disk. Writes go to a temporary file renamed into place, so
 * a reader (or another instance sharing the directory) never sees half a file.
 */
export class DiskCache {
  /** name -> size in bytes, least recently used first (a Map keeps insertion order). */
  private readonly index = new Map<string, number>();
  private total = 0;
  private loading: Promise<void> | undefined;

  constructor(private readonly options: DiskCacheOptions) {}

  async read(name: string): Promise<Buffer | null> {
    await this.load();
    const size = this.index.get(name);
    if (size === undefined) return null;
    try {
      const body = await fs.readFile(this.file(name));
      this.index.delete(name);
      this.index.set(name, size);
      return body;
    } catch {
      // Removed behind our back (another instance's eviction, an operator): forget it.
      this.forget(name);
      return null;
    }
  }

  async write(name: string, body: Buffer): Promise<void> {
    await this.load();
    const temporary = path.join(this.options.dir, `.${name}.${randomUUID()}.tmp`);
    await fs.writeFile(temporary, body, { mode: 0o600 });
    await fs.rename(temporary, this.file(name));
    this.forget(name);
    this.index.set(name, body.length);
    this.total += body.length;
    await this.evict();
  }

  /** Bytes the cache holds now (for tests and logs). */
  get size(): number {
    return this.total;
  }

  private file(name: string): string {
    return path.join(this.options.dir, name);
  }

  private forget(name: string): void {
    const size = this.index.get(name);
    if (size === undefined) return;
    this.index.delete(name);
    this.total -= size;
  }

  private load(): Promise<void> {
    this.loading ??= (async () => {
      await fs.mkdir(this.options.dir, { recursive: true, mode: 0o700 });
      const entries: Array<{ name: string; size: number; used: number }> = [];
      for (const name of await fs.readdir(this.options.dir)) {
        const file = this.file(name);
        // Left over from a write that was cut short.
        if (name.startsWith(".")) {
          await fs.rm(file, { force: true });
          continue;
        }
        const stat = await fs.stat(file).catch(() => null);
        if (stat?.isFile()) entries.push({ name, size: stat.size, used: stat.mtimeMs });
      }
      entries.sort((a, b) => a.used - b.used);
      for (const entry of entries) {
        this.index.set(entry.name, entry.size);
        this.total += entry.size;
      }
      await this.evict();
    })();
    return this.loading;
  }

  private async evict(): Promise<void> {
    for (const [name, size] of this.index) {
      if (this.total <= this.options.maxBytes) return;
      this.index.delete(name);
      this.total -= size;
      await fs.rm(this.file(name), { force: true }).catch((error: unknown) => {
        this.options.log.warn({ file: this.file(name), err: error }, "image cache: could not remove an evicted file");
      });
    }
  }
}
