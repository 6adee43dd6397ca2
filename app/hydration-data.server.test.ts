import { describe, expect, it } from "vitest";
import { settleHydrationData } from "./hydration-data.server.ts";

type Meta = NonNullable<Parameters<typeof settleHydrationData>[0]["renderMeta"]>;

const streamOf = (...chunks: Uint8Array[]) =>
  new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const chunk of chunks) {
        await Promise.resolve();
        controller.enqueue(chunk);
      }
      controller.close();
    },
  });

describe("settleHydrationData", () => {
  it("leaves each read of the stream settled, decoded as React Router's StreamTransfer decodes it", async () => {
    const bytes = new TextEncoder().encode('["Café",1]');
    // "é" is two bytes: the first chunk ends in the middle of it.
    const split = bytes.indexOf(0xc3) + 1;
    const renderMeta: Meta = {};
    const settled = await settleHydrationData({ serverHandoffStream: streamOf(bytes.subarray(0, split), bytes.subarray(split)), renderMeta });
    expect(settled).toBe(true);
    const reads = Object.entries(renderMeta.streamCache ?? {}).map(([identifier, entry]) => [Number(identifier), entry.result]);
    expect(reads).toEqual([
      [0, { done: false, value: '["Caf' }],
      [1, { done: false, value: 'é",1]' }],
      [2, { done: true, value: "" }],
    ]);
    // Entries are promises (StreamTransfer keeps them as such) already carrying their result.
    await expect(renderMeta.streamCache?.[0]).resolves.toBeUndefined();
  });

  it("settles nothing without a stream to read (the streaming renderer reads it then)", async () => {
    const renderMeta: Meta = {};
    expect(await settleHydrationData({ serverHandoffStream: undefined, renderMeta })).toBe(false);
    expect(renderMeta.streamCache).toBeUndefined();
  });
});
