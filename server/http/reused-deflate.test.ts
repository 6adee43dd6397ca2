import { randomBytes } from "node:crypto";
import { constants, DeflateRaw, deflateRawSync, inflateRawSync } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import { ReusedRawDeflate } from "./reused-deflate.ts";

const { Z_FINISH, Z_SYNC_FLUSH } = constants;
const html = (n: number) => Buffer.from(`<li class="card"><a href="/products/${n}">Product ${n}</a> – café</li>`.repeat(n));

type Handle = { writeSync: (...args: unknown[]) => void };
/** A zlib stream whose native handle's writes go through `wrap`. */
const streamWith = (level: number, wrap: (write: Handle["writeSync"]) => Handle["writeSync"]) => () => {
  const stream = new DeflateRaw({ level }) as DeflateRaw & { _handle: Handle };
  const write = stream._handle.writeSync.bind(stream._handle);
  stream._handle.writeSync = wrap(write);
  return stream;
};

describe("ReusedRawDeflate", () => {
  it("keeps one zlib stream on this Node", () => {
    expect(new ReusedRawDeflate(3).reused).toBe(true);
  });

  it.each([
    ["an empty input", Buffer.alloc(0)],
    ["a small page's head", html(3)],
    ["a page's text", html(120)],
    ["text that does not compress, larger than one write's output space", randomBytes(200 * 1024)],
    ["a long page", html(3000)],
  ])("deflates %s to deflateRawSync's bytes, call after call, finished or flushed", (_name, input) => {
    for (const level of [1, 3, 6, 9]) {
      const deflate = new ReusedRawDeflate(level);
      expect(deflate.reused).toBe(true);
      for (const flush of [Z_SYNC_FLUSH, Z_FINISH, Z_SYNC_FLUSH, Z_FINISH]) {
        expect(deflate.deflate(input, flush).equals(deflateRawSync(input, { level, finishFlush: flush }))).toBe(true);
      }
    }
  });

  it("gives each input its own stream: one after another, each inflates alone", () => {
    const deflate = new ReusedRawDeflate(3);
    for (const piece of [html(5), html(50), html(7)]) expect(inflateRawSync(deflate.deflate(piece)).equals(piece)).toBe(true);
  });

  it("gives results that later calls do not overwrite", () => {
    const deflate = new ReusedRawDeflate(3);
    const first = deflate.deflate(html(40));
    const copy = Buffer.from(first);
    deflate.deflate(html(41));
    expect(first.equals(copy)).toBe(true);
  });

  it("is not used on a Node whose zlib streams hold other internals", () => {
    const deflate = new ReusedRawDeflate(3, () => Object.assign(new DeflateRaw({ level: 3 }), { _writeState: undefined }));
    expect(deflate.reused).toBe(false);
    expect(deflate.deflate(html(20)).equals(deflateRawSync(html(20), { level: 3 }))).toBe(true);
  });

  it("is not used when its handle does not deflate the probe to deflateRawSync's bytes", () => {
    const wrong = streamWith(3, (write) => (flush, input, ...rest) => write(flush, Buffer.from("something else"), 0, 14, ...rest.slice(2)));
    const deflate = new ReusedRawDeflate(3, wrong);
    expect(deflate.reused).toBe(false);
    expect(deflate.deflate(html(20)).equals(deflateRawSync(html(20), { level: 3 }))).toBe(true);
  });

  it("falls back to deflateRawSync for good once the kept stream fails", () => {
    let broken = false;
    const writes = vi.fn();
    const failing = streamWith(3, (write) => (...args) => {
      writes();
      if (broken) throw new Error("zlib handle broken");
      write(...args);
    });
    const deflate = new ReusedRawDeflate(3, failing);
    expect(deflate.reused).toBe(true);
    broken = true;
    writes.mockClear();
    const input = html(30);
    expect(deflate.deflate(input).equals(deflateRawSync(input, { level: 3 }))).toBe(true);
    expect(deflate.reused).toBe(false);
    expect(deflate.deflate(input).equals(deflateRawSync(input, { level: 3 }))).toBe(true);
    expect(writes).toHaveBeenCalledTimes(1);
  });
});
