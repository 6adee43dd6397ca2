import { describe, expect, it } from "vitest";
import { displayName, itemCount, shorten } from "./text.ts";

describe("displayName", () => {
  it.each([
    ["ada@example.com", "ada"],
    ["first.last+shop@mail.example", "first.last+shop"],
  ])("%s -> %s", (email, name) => {
    expect(displayName(email)).toBe(name);
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
