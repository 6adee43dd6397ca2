import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { withoutModulePreloads } from "./module-preloads.server.ts";

const DOCUMENT =
  '<!DOCTYPE html><html><head><meta charSet="utf-8"/><link rel="modulepreload" href="/assets/a.js" nonce="n"/>' +
  '<title>Café</title><link rel="modulepreload" href="/assets/b.js"/><link rel="icon" href="/favicon.svg"/></head>' +
  '<body><p>A page that shows <link rel="modulepreload" href="/x.js"/> as text</p><script type="module">import "/assets/a.js";</script></body></html>';

/** The document through the filter, cut into chunks of `size` bytes (tags and characters split across them). */
async function filtered(size: number) {
  const bytes = Buffer.from(DOCUMENT);
  const chunks = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
  return text(Readable.from(chunks).pipe(withoutModulePreloads()));
}

describe("withoutModulePreloads", () => {
  it.each([1, 7, 64, 4096])("drops the head's module preloads and keeps everything else (chunks of %i bytes)", async (size) => {
    expect(await filtered(size)).toBe(
      '<!DOCTYPE html><html><head><meta charSet="utf-8"/><title>Café</title><link rel="icon" href="/favicon.svg"/></head>' +
        '<body><p>A page that shows <link rel="modulepreload" href="/x.js"/> as text</p><script type="module">import "/assets/a.js";</script></body></html>',
    );
  });

  it("lets through a document that never closes its head", async () => {
    const partial = "<!DOCTYPE html><html><head><title>cut short";
    expect(await text(Readable.from([Buffer.from(partial)]).pipe(withoutModulePreloads()))).toBe(partial);
  });
});
