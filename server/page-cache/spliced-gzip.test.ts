import { randomBytes } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { joined } from "../pipeline/ready-answer.ts";
import { SplicedGzip } from "./spliced-gzip.ts";

describe("a spliced gzip", () => {
  it("is a valid gzip of the text with each fill in its holes (gunzip checks the CRC and length)", () => {
    const page = '<html><script nonce="@">a()</script>'.repeat(50) + "<p>é ü ✓</p>".repeat(200);
    const parts = page.split("@");
    const spliced = new SplicedGzip(parts);
    for (const fill of ["abc==", "Zm9vYmFyYmF6cXV4MTIzNA==", ""]) {
      const expected = parts.join(fill);
      expect(gunzipSync(joined(spliced.gzip(fill))).toString()).toBe(expected);
      expect(Buffer.from(joined(spliced.text(fill))).toString()).toBe(expected);
    }
  });

  it("compresses the parts, not just stores them", () => {
    const parts = ["<div>repeated</div>".repeat(2000), "<div>repeated</div>".repeat(2000)];
    expect(joined(new SplicedGzip(parts).gzip("x")).length).toBeLessThan(parts.join("x").length / 20);
  });

  it("holds fills longer than one stored block, random parts and no hole at all", () => {
    const random = randomBytes(100_000).toString("base64");
    const long = "y".repeat(70_000);
    expect(gunzipSync(joined(new SplicedGzip([random, random.slice(9)]).gzip(long))).toString()).toBe(random + long + random.slice(9));
    expect(gunzipSync(joined(new SplicedGzip(["only one part"]).gzip("unused"))).toString()).toBe("only one part");
  });

  it("puts each hole's own value in it when given one per hole (a shell's nonce and user fields)", () => {
    const parts = ["<p>", "</p><script>x(\"", "\")</script><b>", "</b>"];
    const fills = ["Ada &amp; co", "caf\u00e9 ✓", "Ada &amp; co"];
    const spliced = new SplicedGzip(parts);
    const expected = `<p>${fills[0]}</p><script>x("${fills[1]}")</script><b>${fills[2]}</b>`;
    expect(gunzipSync(joined(spliced.gzip(fills))).toString()).toBe(expected);
    expect(Buffer.from(joined(spliced.text(fills))).toString()).toBe(expected);
    expect(() => spliced.gzip(["too", "few"])).toThrow();
  });

  it("gives each response the kept parts themselves, with only its holes and trailer made for it (no copy of the page)", () => {
    const parts = ["<p>".repeat(500), "</p>".repeat(500), "<b>".repeat(500)];
    const spliced = new SplicedGzip(parts);
    const [first, second] = [spliced.gzip("nonce-1"), spliced.gzip("nonce-2")];
    // header + part, hole, part, hole, part + final block, trailer
    expect(first).toHaveLength(6);
    for (const at of [0, 2, 4]) expect(second[at]).toBe(first[at]);
    for (const at of [1, 3, 5]) expect(second[at]).not.toBe(first[at]);
    expect(first[1]!.length + first[5]!.length).toBeLessThan(30);
    const text = spliced.text("n");
    expect(spliced.text("m")[0]).toBe(text[0]);
  });
});
