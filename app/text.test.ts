import { describe, expect, it } from "vitest";
import { displayName, formatCount, itemCount, shorten } from "./text.ts";

describe("displayName", () => {
  it.each([
    ["ada@example.com", "ada"],
    ["first.last+shop@mail.example", "first.last+shop"],
  ])("%s -> %s", (email, name) => {
    expect(displayName(email)).toBe(name);
  });
});

describe("formatCount", () => {
  it.each([
    [0, "0"],
    [312, "312"],
    [1234, "1,234"],
    [1234567, "1,234,567"],
  ])("%d -> %s", (n, text) => {
    expect(formatCount(n)).toBe(text);
  });

  it("writes every number as Intl's en-US format does", () => {
    const intl = new Intl.NumberFormat("en-US");
    const numbers = [0, -0, 999, 1000, -1000, 999999, 1000000, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1.5, 1234.5678, Number.NaN];
    for (let i = 0; i < 2000; i++) numbers.push(Math.floor(Math.random() * 10 ** (1 + (i % 15))) * (i % 4 === 0 ? -1 : 1));
    for (const n of numbers) expect(formatCount(n), String(n)).toBe(intl.format(n));
  });
});

describe("itemCount", () => {
  it.each([
    [0, "0 items"],
    [1, "1 item"],
    [3, "3 items"],
  ])("%d -> %s", (n, text) => {
    expect(itemCount(n)).toBe(text);
  });
});

describe("shorten", () => {
  it("leaves a short text alone", () => {
    expect(shorten("A bag.", 10)).toBe("A bag.");
  });

  it("cuts at a word boundary and drops trailing punctuation", () => {
    expect(shorten("Waxed canvas, leather straps and brass buckles", 20)).toBe("Waxed canvas…");
    expect(shorten("One two three", 7)).toBe("One two…");
  });

  it("cuts a single long word at the limit", () => {
    expect(shorten("Supercalifragilistic", 5)).toBe("Super…");
  });
});
