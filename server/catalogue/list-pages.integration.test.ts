import { beforeAll, describe, expect, it } from "vitest";
import { EmbeddedCatalogue } from "./embedded.ts";
import type { Product } from "./product.ts";
import { TEST_ORIGIN, signUp, testApp } from "../../test/support/app.ts";
import { builtPages } from "../../test/support/pages.ts";

/** A catalogue of 100 products: ids 1-100, every fifth jewelery (20), the rest electronics (80); prices fall as ids rise. */
class HundredProducts extends EmbeddedCatalogue {
  private readonly hundred: Product[];

  constructor() {
    super();
    const image = this.files.keys().next().value!;
    this.hundred = Array.from({ length: 100 }, (_, i) => ({
      id: i + 1,
      title: `Product number ${i + 1}`,
      priceCents: 100_000 - i * 100,
      description: `The product numbered ${i + 1}.`,
      category: (i + 1) % 5 === 0 ? "jewelery" : "electronics",
      image: `/images/products/${image}`,
      rating: { rate: 4, count: 10 },
      stock: i === 0 ? 0 : i === 1 ? null : 50,
    }));
  }

  override async list() {
    return this.hundred;
  }

  override async listed() {
    return this.hundred;
  }

  override async byId(id: number) {
    return this.hundred.find((p) => p.id === id) ?? null;
  }

  override async byIds(ids: readonly number[]) {
    return ids.flatMap((id) => this.hundred.find((p) => p.id === id) ?? []);
  }
}

let app: Awaited<ReturnType<typeof testApp>>["app"];
beforeAll(async () => {
  ({ app } = await testApp({ catalogue: new HundredProducts(), ssr: await builtPages() }));
});

async function page(path: string, init: RequestInit = {}) {
  const response = await app.request(`${TEST_ORIGIN}${path}`, init);
  const html = await response.text();
  const cards = [...html.matchAll(/<article class="card[^"]*" aria-label="Product number (\d+)"/g)].map((m) => Number(m[1]));
  const attribute = (re: RegExp) => re.exec(html)?.[1]?.replaceAll("&amp;", "&");
  return {
    status: response.status,
    cache: response.headers.get("x-page-cache"),
    html,
    cards,
    title: /<title>([^<]*)<\/title>/.exec(html)?.[1],
    canonical: attribute(/<link rel="canonical" href="([^"]+)"/),
    prev: attribute(/<a href="([^"]+)" rel="prev"/) ?? attribute(/<a rel="prev"[^>]* href="([^"]+)"/),
    next: attribute(/<a href="([^"]+)" rel="next"/) ?? attribute(/<a rel="next"[^>]* href="([^"]+)"/),
  };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("the home page in pages of 48", () => {
  it("page 1 shows the first 48 with a Next link, canonical to the bare address, the shop's own title", async () => {
    const first = await page("/");
    expect(first.status).toBe(200);
    expect(first.cards).toEqual(range(1, 48));
    expect(first.title).toBe("Storefront");
    expect(first.canonical).toBe(`${TEST_ORIGIN}/`);
    expect(first.prev).toBeUndefined();
    expect(first.next).toBe("/?page=2");
    expect((await page("/?page=1")).canonical).toBe(`${TEST_ORIGIN}/`);
  });

  it("page 2 shows products 49 to 96 between Previous and Next, with its number in the title and canonical", async () => {
    const second = await page("/?page=2");
    expect(second.status).toBe(200);
    expect(second.cards).toEqual(range(49, 96));
    expect(second.title).toBe("All products – page 2 | Storefront");
    expect(second.canonical).toBe(`${TEST_ORIGIN}/?page=2`);
    expect(second.prev).toBe("/");
    expect(second.next).toBe("/?page=3");
    expect(second.html).toContain("Page 2 of 3");
    // The banners and tiles open page 1 only.
    expect(second.html).not.toContain("Shop by category");
  });

  it("the last page has Previous only; a page past the last, or no page number, is the shop's Page not found with a 404", async () => {
    const last = await page("/?page=3");
    expect(last.cards).toEqual(range(97, 100));
    expect(last.next).toBeUndefined();
    expect(last.prev).toBe("/?page=2");
    for (const path of ["/?page=4", "/?page=0", "/?page=two", "/?page=1.5", "/?page=02"]) {
      const missing = await page(path);
      expect(missing.status, path).toBe(404);
      expect(missing.html, path).toContain("Page not found");
      expect(missing.cards, path).toEqual([]);
    }
  });

  it("keeps each page in the page cache under its own address, and serves a signed-in visitor each page from its shell", async () => {
    await page("/?page=2");
    const again = await page("/?page=2");
    expect(again.cache).toBe("hit");
    expect(again.cards).toEqual(range(49, 96));
    expect((await page("/?page=3")).cards).toEqual(range(97, 100));
    const cookie = await signUp(app, "pages@example.com");
    const signedIn = await page("/?page=2", { headers: { cookie } });
    expect(signedIn.cards).toEqual(range(49, 96));
    expect(signedIn.html).toContain("Hello <!-- -->pages");
  });
});

describe("a category page in pages of 48, sorted", () => {
  const electronics = range(1, 100).filter((id) => id % 5 !== 0);

  it("pages the category's 80 products by id, and sorts them by price up across pages, keeping the order in its links", async () => {
    const second = await page("/results/electronics?page=2");
    expect(second.cards).toEqual(electronics.slice(48));
    expect(second.title).toBe("Results for electronics – page 2 | Storefront");
    expect(second.canonical).toBe(`${TEST_ORIGIN}/results/electronics?page=2`);
    expect(second.prev).toBe("/results/electronics");

    const cheapest = await page("/results/electronics?sort=price-asc");
    expect(cheapest.cards).toEqual([...electronics].reverse().slice(0, 48));
    expect(cheapest.canonical).toBe(`${TEST_ORIGIN}/results/electronics?sort=price-asc`);
    expect(cheapest.next).toBe("/results/electronics?sort=price-asc&page=2");
    const sortedSecond = await page("/results/electronics?sort=price-asc&page=2");
    expect(sortedSecond.cards).toEqual([...electronics].reverse().slice(48));
    expect(sortedSecond.canonical).toBe(`${TEST_ORIGIN}/results/electronics?sort=price-asc&page=2`);
    expect(sortedSecond.prev).toBe("/results/electronics?sort=price-asc");
    expect(sortedSecond.html).toMatch(/<option value="price-asc" selected="">/);
  });

  it("takes an unknown order for the default, canonical to the default's address; a page past the last is a 404", async () => {
    const unknown = await page("/results/electronics?sort=cheapest-first");
    expect(unknown.status).toBe(200);
    expect(unknown.cards).toEqual(electronics.slice(0, 48));
    expect(unknown.canonical).toBe(`${TEST_ORIGIN}/results/electronics`);
    expect((await page("/results/electronics?page=3")).status).toBe(404);
    expect((await page("/results/electronics?sort=rating&page=3")).status).toBe(404);
  });

  it("shows a category of one page (20 products) without a pager, and a category without products as the spec says", async () => {
    const jewelery = await page("/results/jewelery");
    expect(jewelery.cards).toEqual(range(1, 20).map((i) => i * 5));
    expect(jewelery.html).not.toContain('class="pager"');
    const none = await page("/results/hats");
    expect(none.status).toBe(200);
    expect(none.html).toContain("No products found in the <!-- -->hats<!-- --> category.");
    expect((await page("/results/hats?page=2")).status).toBe(404);
  });
});

describe("a product page's structured data", () => {
  const jsonLd = (html: string) => [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);

  it("says whether the product is in stock (untracked stock is), and its breadcrumbs: Home, category, product", async () => {
    const [soldOut] = jsonLd((await page("/products/1")).html);
    expect(soldOut).toMatchObject({ "@type": "Product", offers: { availability: "https://schema.org/OutOfStock" } });
    const [untracked] = jsonLd((await page("/products/2")).html);
    expect(untracked).toMatchObject({ offers: { availability: "https://schema.org/InStock" } });
    const [product, breadcrumbs] = jsonLd((await page("/products/5")).html);
    expect(product).toMatchObject({ "@context": "https://schema.org", "@type": "Product", name: "Product number 5", offers: { price: "996.00", availability: "https://schema.org/InStock" } });
    expect(breadcrumbs).toEqual({
      "@context": "https://schema.org",
      "@type": "BreadcrumbList",
      itemListElement: [
        { "@type": "ListItem", position: 1, name: "Home", item: `${TEST_ORIGIN}/` },
        { "@type": "ListItem", position: 2, name: "jewelery", item: `${TEST_ORIGIN}/results/jewelery` },
        { "@type": "ListItem", position: 3, name: "Product number 5", item: `${TEST_ORIGIN}/products/5` },
      ],
    });
  });
});

describe("search results in pages of 48", () => {
  it("shows the best 48, then the next, with Previous and Next keeping the query; a page past the last is not found", async () => {
    const first = await page("/search?q=product");
    expect(first.status).toBe(200);
    expect(first.html).toContain("100 results<!-- --> for");
    expect(first.cards).toHaveLength(48);
    expect(first.prev).toBeUndefined();
    expect(first.next).toBe("/search?q=product&page=2");
    const second = await page("/search?q=product&page=2");
    expect(second.title).toBe("Results for &quot;product&quot; – page 2 | Storefront");
    expect(second.prev).toBe("/search?q=product");
    expect(second.next).toBe("/search?q=product&page=3");
    const third = await page("/search?q=product&page=3");
    expect(third.cards).toHaveLength(4);
    expect(third.next).toBeUndefined();
    expect(new Set([...first.cards, ...second.cards, ...third.cards]).size).toBe(100);
    expect((await page("/search?q=product&page=4")).status).toBe(404);
    expect((await page("/search?q=product&page=0")).status).toBe(404);
  });
});
