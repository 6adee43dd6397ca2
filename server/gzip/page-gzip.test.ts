import { constants, deflateRawSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { gzipPage, gzipWhole } from "./page-gzip.ts";

const css = (colour: string) => `body{color:${colour}}` + ".card{padding:16px;border-radius:4px}".repeat(100);
const page = (title: string, stylesheet = css("#0f1111")) =>
  `<!DOCTYPE html><html><head><title>${title} – café</title><style nonce="abc">${stylesheet}</style><script>1</script></head><body><h1>${title}</h1></body></html>`;

describe("gzipPage", () => {
  it.each([
    ["a page with an inline stylesheet", page("Rucksack")],
    ["another page with the same stylesheet", page("Ring")],
    ["a page with another stylesheet", page("Ring", css("#c40000"))],
    ["a page with a small stylesheet", page("Ring", "p{margin:0}")],
    ["a page without one", `<!DOCTYPE html><html><head><title>x</title></head><body>${"<p>no style</p>".repeat(20)}</body></html>`],
    ["a page that never closes its stylesheet", "<html><head><style>" + css("#fff")],
  ])("gzips %s to what a browser unzips to the same page", (_name, text) => {
    const gzipped = gzipPage(Buffer.from(text));
    expect(gunzipSync(gzipped).toString()).toBe(text);
    expect(gzipped.length).toBeLessThan(Buffer.byteLength(text));
  });

  it("gives the same bytes whether the stylesheet was compressed before or not", () => {
    const text = page("Jacket", css("#232f3e"));
    const first = gzipPage(Buffer.from(text));
    expect(gzipPage(Buffer.from(text)).equals(first)).toBe(true);
  });

  it("deflates each page's own text as a new zlib stream would, page after page", () => {
    for (const title of ["Rucksack", "Ring", "Jacket"]) {
      const text = page(title);
      const start = text.indexOf(">", text.indexOf("<style")) + 1;
      const end = text.indexOf("</style>");
      const before = deflateRawSync(text.slice(0, start), { level: 3, finishFlush: constants.Z_SYNC_FLUSH });
      const after = deflateRawSync(text.slice(end), { level: 3 });
      const gzipped = gzipPage(Buffer.from(text));
      expect(gzipped.subarray(10, 10 + before.length).equals(before)).toBe(true);
      expect(gzipped.subarray(gzipped.length - 8 - after.length, gzipped.length - 8).equals(after)).toBe(true);
    }
  });
});

describe("gzipWhole", () => {
  it("gzips answer after answer to a new level 3 deflate stream's bytes, each unzipping to itself", () => {
    const answers = [
      JSON.stringify(Array.from({ length: 40 }, (_, id) => ({ id, title: `Product ${id} – café`, price: id * 1.5 }))),
      `[{"_1":2},"routes/orders",{"_3":4},"data",${JSON.stringify("x".repeat(5_000))}]`,
      // Larger than zlib's output space in one write.
      Array.from({ length: 30_000 }, (_, i) => (i * 7919) % 1000).join(","),
    ];
    for (const text of answers) {
      const gzipped = gzipWhole(Buffer.from(text));
      expect(gunzipSync(gzipped).toString()).toBe(text);
      const deflated = deflateRawSync(text, { level: 3 });
      expect(gzipped.subarray(10, gzipped.length - 8).equals(deflated)).toBe(true);
    }
  });
});
