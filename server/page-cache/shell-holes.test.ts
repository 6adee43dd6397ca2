import { describe, expect, it } from "vitest";
import { cutShell, fills, placeholderUser } from "./shell-holes.ts";

const placeholder = placeholderUser("customer");
const name = placeholder.email.split("@")[0]!;
const NONCE = "bm9uY2U=";
const hydration = (data: string) => `<script nonce="${NONCE}">window.__reactRouterContext.streamController.enqueue("${data}");</script>`;
const page = (body: string) => `<html><head><script nonce="${NONCE}">early()</script></head><body>${body}</body></html>`;

describe("a personal shell", () => {
  it("is cut at the nonce and the placeholder's values, each hole knowing where it is", () => {
    const html = page(`<span>Hello <!-- -->${name}</span>${hydration(`\\"uid\\",\\"${placeholder.uid}\\",\\"email\\",\\"${placeholder.email}\\"`)}`);
    const shell = cutShell(html, NONCE)!;
    expect(shell.holes).toEqual([
      { field: "nonce", place: "html" },
      { field: "name", place: "html" },
      { field: "nonce", place: "html" },
      { field: "uid", place: "script" },
      { field: "name", place: "script" },
      { field: "domain", place: "script" },
    ]);
    const user = { uid: "u-1", email: `o"neil<b>@example.com`, role: "customer" as const };
    const filled = shell.parts.reduce((text, part, i) => text + fills(shell.holes, user, "fresh")![i - 1]! + part);
    expect(filled).toBe(
      page(`<span>Hello <!-- -->o&quot;neil&lt;b&gt;</span>${hydration(String.raw`\"uid\",\"u-1\",\"email\",\"o\\\"neil\u003cb\u003e@example.com\"`)}`).replaceAll(NONCE, "fresh"),
    );
  });

  it("is refused where a value sits in a style or in a script that is not React Router's hydration data", () => {
    expect(cutShell(page(`<style>.x{content:"${name}"}</style>`), NONCE)).toBeNull();
    expect(cutShell(page(`<script nonce="${NONCE}">track("${placeholder.uid}")</script>`), NONCE)).toBeNull();
  });

  it("is refused where a page shows a value transformed (the placeholder's mark is left in the text)", () => {
    expect(cutShell(page(`<a href="/u?e=${encodeURIComponent(placeholder.email)}">me</a>`), NONCE)).toBeNull();
    expect(cutShell(page(`<b>${name.toUpperCase()}</b>`), NONCE)).toBeNull();
  });

  it("is not filled for an email without a name before its @ (the header would differ)", () => {
    expect(fills([{ field: "name", place: "html" }], { uid: "u", email: "@example.com", role: "customer" }, NONCE)).toBeNull();
  });
});
