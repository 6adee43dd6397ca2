import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { htmlText, hydrationString } from "./shell-escape.ts";

/** Values that each escape must get right: markup, quotes, backslashes, a script's end, control characters, unicode. */
const AWKWARD = [
  "ada",
  `<b>"bold" & 'quoted'</b>`,
  "back\\slash \\u0041 \\n",
  "</script><script>alert(1)</script>",
  "<!-- comment -->",
  "line\nbreak\ttab\u0000nul\u001f",
  "\u2028 and \u2029 separators",
  "café ✓ 日本 😀 \ud800 lone",
  "${template} `tick`",
];

describe("a value in page markup", () => {
  it("is written as React writes it in text and in an attribute", () => {
    for (const value of AWKWARD) {
      expect(renderToStaticMarkup(createElement("span", null, value)), value).toBe(`<span>${htmlText(value)}</span>`);
      expect(renderToStaticMarkup(createElement("span", { title: value })), value).toBe(`<span title="${htmlText(value)}"></span>`);
    }
  });
});

describe("a value in the hydration script", () => {
  it("decodes to the value: a JavaScript string literal of turbo-stream's JSON string", () => {
    for (const value of AWKWARD) {
      const literal = `"\\"${hydrationString(value)}\\""`;
      // The script's literal is JSON (JSON.stringify output with \u escapes), its content turbo-stream's JSON string.
      expect(JSON.parse(JSON.parse(literal) as string), value).toBe(value);
    }
  });

  it("cannot end the script, open a comment or break a line in it", () => {
    for (const value of AWKWARD) expect(hydrationString(value), value).not.toMatch(/[<>&\u2028\u2029\n\r]/);
  });

  it("is what React Router writes: JSON of JSON, then <, >, &, U+2028 and U+2029 as \\u escapes", () => {
    expect(hydrationString(`a"b\\c</script>&\u2028`)).toBe(String.raw`a\\\"b\\\\c\u003c/script\u003e\u0026\u2028`);
  });
});
