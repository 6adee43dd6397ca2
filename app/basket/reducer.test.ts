import { describe, expect, it } from "vitest";
import { basketCount, subtotalCents } from "../../lib/basket.ts";
import { type BasketItem, initialState, type StoreState, storeReducer } from "./reducer.ts";

const product = (id: number, priceCents: number): Omit<BasketItem, "quantity"> => ({
  id,
  title: `Product ${id}`,
  image: `/images/products/${id}.svg`,
  rating: { rate: 4.1, count: 10 },
  priceCents,
  description: `About product ${id}`,
});

const run = (...actions: Parameters<typeof storeReducer>[1][]): StoreState =>
  actions.reduce(storeReducer, initialState);

describe("basket transitions", () => {
  it("appends a new item with quantity 1", () => {
    const state = run({ type: "ADD_TO_BASKET", item: product(1, 1599) });
    expect(state.basket).toEqual([{ ...product(1, 1599), quantity: 1 }]);
  });

  it("raises the quantity of an item already in the basket instead of adding a line", () => {
    const state = run(
      { type: "ADD_TO_BASKET", item: product(1, 1599) },
      { type: "ADD_TO_BASKET", item: product(2, 6400) },
      { type: "ADD_TO_BASKET", item: product(1, 1599) },
    );
    expect(state.basket.map((line) => [line.id, line.quantity])).toEqual([
      [1, 2],
      [2, 1],
    ]);
  });

  it("keeps only the basket item's fields, whatever else the product carries", () => {
    const state = run({ type: "ADD_TO_BASKET", item: { ...product(3, 100), category: "jewelery" } as never });
    expect(Object.keys(state.basket[0]!).sort()).toEqual(
      ["description", "id", "image", "priceCents", "quantity", "rating", "title"].sort(),
    );
  });

  it("lowers the quantity on remove, and removes the line when it was 1", () => {
    let state = run(
      { type: "ADD_TO_BASKET", item: product(1, 100) },
      { type: "ADD_TO_BASKET", item: product(1, 100) },
      { type: "ADD_TO_BASKET", item: product(2, 200) },
    );
    state = storeReducer(state, { type: "REMOVE_FROM_BASKET", id: 1 });
    expect(state.basket.map((line) => [line.id, line.quantity])).toEqual([
      [1, 1],
      [2, 1],
    ]);
    state = storeReducer(state, { type: "REMOVE_FROM_BASKET", id: 1 });
    expect(state.basket.map((line) => line.id)).toEqual([2]);
  });

  it("ignores removing an item that is not in the basket", () => {
    const before = run({ type: "ADD_TO_BASKET", item: product(1, 100) });
    expect(storeReducer(before, { type: "REMOVE_FROM_BASKET", id: 99 }).basket).toEqual(before.basket);
  });

  it("empties the basket and leaves the user alone", () => {
    const user = { uid: "u1", email: "ada@example.com", role: "customer" as const };
    const state = run(
      { type: "SET_USER", user },
      { type: "ADD_TO_BASKET", item: product(1, 100) },
      { type: "EMPTY_BASKET" },
    );
    expect(state).toEqual({ basket: [], user });
  });

  it("sets and clears the user", () => {
    const user = { uid: "u1", email: "ada@example.com", role: "customer" as const };
    expect(run({ type: "SET_USER", user }).user).toEqual(user);
    expect(run({ type: "SET_USER", user }, { type: "SET_USER", user: null }).user).toBeNull();
  });

  it("does not mutate the previous state", () => {
    const before = run({ type: "ADD_TO_BASKET", item: product(1, 100) });
    const snapshot = structuredClone(before);
    storeReducer(before, { type: "ADD_TO_BASKET", item: product(1, 100) });
    storeReducer(before, { type: "REMOVE_FROM_BASKET", id: 1 });
    expect(before).toEqual(snapshot);
  });
});

describe("counts and totals", () => {
  const basket = run(
    { type: "ADD_TO_BASKET", item: product(1, 1599) },
    { type: "ADD_TO_BASKET", item: product(2, 6400) },
    { type: "ADD_TO_BASKET", item: product(2, 6400) },
    { type: "ADD_TO_BASKET", item: product(3, 985) },
  ).basket;

  it("counts the sum of quantities for the header, and distinct lines separately", () => {
    expect(basketCount(basket)).toBe(4);
    expect(basket.length).toBe(3);
  });

  it("sums price x quantity in cents", () => {
    expect(subtotalCents(basket)).toBe(1599 + 2 * 6400 + 985);
  });

  it("is exact where float dollars are a cent off", () => {
    // In float dollars (15.99 + 64.00) * 100 is 7998.999999999999 and 3 * 9.85 is 29.549999999999997:
    // truncated to cents, each is a cent short.
    expect(Math.trunc((15.99 + 64.0) * 100)).toBe(7998);
    expect(Math.trunc(3 * 9.85 * 100)).toBe(2954);
    const a = run({ type: "ADD_TO_BASKET", item: product(1, 1599) }, { type: "ADD_TO_BASKET", item: product(2, 6400) });
    expect(subtotalCents(a.basket)).toBe(7999);
    const b = run(...Array.from({ length: 3 }, () => ({ type: "ADD_TO_BASKET" as const, item: product(3, 985) })));
    expect(subtotalCents(b.basket)).toBe(2955);
  });

  it("is zero for an empty basket", () => {
    expect(basketCount([])).toBe(0);
    expect(subtotalCents([])).toBe(0);
  });
});
