import { describe, expect, it } from "vitest";
import { PreparedAnswers } from "./prepared-answers.ts";
import type { Product } from "./product.ts";

const products: Product[] = [];
const build = (chars: number) => async () => ({ body: "x".repeat(chars) });

describe("PreparedAnswers", () => {
  it("keeps its answers' JSON within its bound, making them again past it", async () => {
    const prepared = new PreparedAnswers(1000);
    await prepared.answer("/a", "/a", products, build(400), undefined, undefined);
    await prepared.answer("/b", "/b", products, build(400), undefined, undefined);
    expect(prepared.size).toEqual({ answers: 2, chars: 804 });
    await prepared.answer("/c", "/c", products, build(400), undefined, undefined);
    expect(prepared.size).toEqual({ answers: 1, chars: 402 });
    expect(prepared.has("/a")).toBe(false);
    // The same address made again from another list replaces its answer.
    await prepared.answer("/c", "/c", [], build(100), undefined, undefined);
    expect(prepared.size).toEqual({ answers: 1, chars: 102 });
  });

  it("puts an answer's own headers on every form and its 304, and into its ETag", async () => {
    const prepared = new PreparedAnswers();
    const plain = await prepared.answer("/p", "/p", products, async () => ({ body: [1] }), undefined, undefined);
    const linked = await prepared.answer("/l", "/l", products, async () => ({ body: [1], headers: { Link: "<https://shop.example/p?page=2>; rel=\"next\"" } }), undefined, undefined);
    expect(plain.headers.Link).toBeUndefined();
    expect(linked.headers.Link).toBe("<https://shop.example/p?page=2>; rel=\"next\"");
    expect(linked.headers.ETag).not.toBe(plain.headers.ETag);
    const notModified = await prepared.answer("/l", "/l", products, async () => ({ body: [1] }), linked.headers.ETag, undefined);
    expect(notModified).toMatchObject({ status: 304, headers: { Link: linked.headers.Link } });
  });
});
