import { describe, expect, it } from "vitest";
import { withoutModulePreloads } from "./module-preloads.server.ts";

const DOCUMENT =
  '<!DOCTYPE html><html><head><meta charSet="utf-8"/><link rel="modulepreload" href="/assets/a.js" nonce="n"/>' +
  '<title>Café</title><link rel="modulepreload" href="/assets/b.js"/><link rel="icon" href="/favicon.svg"/></head>' +
  '<body><p>A page that shows <link rel="modulepreload" href="/x.js"/> as text</p><script type="module">import "/assets/a.js";</script></body></html>';

const filtered = (document: string) => withoutModulePreloads(Buffer.from(document)).toString("utf8");

describe("withoutModulePreloads", () => {
  it("drops the head's module preloads and keeps everything else", () => {
    expect(filtered(DOCUMENT)).toBe(
      '<!DOCTYPE html><html><head><meta charSet="utf-8"/><title>Café</title><link rel="icon" href="/favicon.svg"/></head>' +
        '<body><p>A page that shows <link rel="modulepreload" href="/x.js"/> as text</p><script type="module">import "/assets/a.js";</script></body></html>',
    );
  });

  it("leaves a document without preloads, or that never closes its head, as it is", () => {
    const plain = '<!DOCTYPE html><html><head><title>Café</title></head><body><link rel="modulepreload" href="/x.js"/></body></html>';
    expect(filtered(plain)).toBe(plain);
    const partial = '<!DOCTYPE html><html><head><link rel="modulepreload" href="/a.js"/><title>cut short';
    expect(filtered(partial)).toBe(partial);
  });
});
