// The checked rows of an import, kept in a private temporary file between checking them all and
// writing them: memory holds one batch, whatever the file's size.

import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { finished } from "node:stream/promises";
import type { ProductRow } from "./fields.ts";

export class Spool {
  private constructor(
    private readonly dir: string,
    private readonly out: fs.WriteStream,
  ) {}

  static async create(): Promise<Spool> {
    // mkdtemp makes the folder 0700: a catalogue in the making is nobody else's to read.
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "storefront-import-"));
    return new Spool(dir, fs.createWriteStream(path.join(dir, "rows.ndjson"), { mode: 0o600 }));
  }

  async write(row: ProductRow): Promise<void> {
    if (!this.out.write(`${JSON.stringify(row)}\n`)) await once(this.out, "drain");
  }

  /** Every row written, in order, `size` at a time; call once writing is over. */
  async *batches(size: number): AsyncGenerator<ProductRow[]> {
    if (!this.out.writableEnded) {
      this.out.end();
      await finished(this.out);
    }
    const lines = createInterface({ input: fs.createReadStream(path.join(this.dir, "rows.ndjson")), crlfDelay: Infinity });
    let batch: ProductRow[] = [];
    for await (const line of lines) {
      batch.push(JSON.parse(line) as ProductRow);
      if (batch.length === size) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }

  async remove(): Promise<void> {
    this.out.destroy();
    await fs.promises.rm(this.dir, { recursive: true, force: true });
  }
}
