import { describe, expect, it } from "vitest";
import { canonicalHref, pagedTitle, parsePage, parseSort, resultsPath, withPage } from "./list-query.ts";

describe("a list page's query", () => {
  it("reads one spelling of each page: absent is 1, a whole number from 1, anything else none (a 404)", () => {
    expect(parsePage(null)).toBe(1);
    expect(parsePage("1")).toBe(1);
    expect(parsePage("2")).toBe(2);
    expect(parsePage("123456789")).toBe(123456789);
    for (const bad of ["", "0", "-1", "1.5", "01", "2a", " 2", "1e3", "1234567890", "two"]) expect(parsePage(bad), bad).toBeNull();
  });

  it("reads the known orders, and takes anything else for the default (by id)", () => {
    expect(parseSort("price-asc")).toBe("price-asc");
    expect(parseSort("price-desc")).toBe("price-desc");
    expect(parseSort("rating")).toBe("rating");
    expect(parseSort("id")).toBe("id");
    for (const other of [null, "", "PRICE-ASC", "cheapest", "toString"]) expect(parseSort(other), String(other)).toBe("id");
  });

  it("links another page keeping every other parameter, page 1 without one", () => {
    expect(withPage("", 2)).toBe("?page=2");
    expect(withPage("?sort=price-asc", 2)).toBe("?sort=price-asc&page=2");
    expect(withPage("?sort=rating&page=3", 2)).toBe("?sort=rating&page=2");
    expect(withPage("?sort=rating&page=2", 1)).toBe("?sort=rating");
    expect(withPage("?page=2", 1)).toBe("");
  });
});

describe("a list page's canonical address and title", () => {
  const origin = "https://shop.example";

  it("names page 1 by the bare address, later pages by ?page=n, a sorted page with its order", () => {
    expect(canonicalHref(origin, "/", "id", 1)).toBe("https://shop.example/");
    expect(canonicalHref(origin, "/", "id", 2)).toBe("https://shop.example/?page=2");
    expect(canonicalHref(origin, resultsPath("men's clothing"), "id", 1)).toBe("https://shop.example/results/men's%20clothing");
    expect(canonicalHref(origin, "/results/electronics", "price-desc", 1)).toBe("https://shop.example/results/electronics?sort=price-desc");
    expect(canonicalHref(origin, "/results/electronics", "rating", 3)).toBe("https://shop.example/results/electronics?sort=rating&page=3");
  });

  it("puts the page number in the title from page 2 on", () => {
    expect(pagedTitle("Results for electronics", 1)).toBe("Results for electronics");
    expect(pagedTitle("Results for electronics", 2)).toBe("Results for electronics – page 2");
  });
});
