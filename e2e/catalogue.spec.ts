import type { Locator, Page } from "@playwright/test";
import { card, categories, expect, formatPrice, inCategory, open, products, test, viewports } from "./support.ts";

// The home page tiles: heading and the category each opens (spec section 2).
const TILES = [
  { title: "Electronics", category: "electronics" },
  { title: "Discover fashion trends", category: "women's clothing" },
  { title: "Men's Clothing", category: "men's clothing" },
  { title: "Jewelry", category: "jewelery" },
];

/** The time each slide stays (app/components/Carousel.tsx). */
const AUTOPLAY_MS = 5_000;
/** Long enough for a slide's transition to end. */
const TRANSITION_MS = 2_000;
/** One autoplay interval and the slide's transition, run on the page's fake clock. */
const AUTOPLAY_STEP_MS = AUTOPLAY_MS + TRANSITION_MS;
const CLOCK_START = Date.UTC(2026, 0, 1);

const slides = (page: Page): Locator => page.getByRole("region", { name: "Featured" }).getByTestId("carousel-slide");

/** Index of the slide marked data-selected="true", or -1. */
const selectedSlide = (page: Page): Promise<number> =>
  slides(page).evaluateAll((all) => all.findIndex((slide) => slide.getAttribute("data-selected") === "true"));

/** The titles of the product cards in <main>, sorted, for comparing as a set. */
const cardTitles = async (page: Page): Promise<string[]> =>
  (await page.getByRole("main").getByRole("article").getByRole("heading").allTextContents()).map((t) => t.trim()).sort();

const sortedTitles = (list: { title: string }[]): string[] => list.map((p) => p.title).sort();

const engineRequests = (page: Page): string[] => {
  const seen: string[] = [];
  page.on("request", (request) => {
    if (/\/carousel-engine-[\w-]+\.js$/.test(new URL(request.url()).pathname)) seen.push(request.url());
  });
  return seen;
};

/** Waits until the carousel's engine (embla), fetched when the slides first have to move, has started. */
const engineStarted = (page: Page) => expect(page.getByRole("region", { name: "Featured" })).toHaveAttribute("data-engine", "ready");

const resultsPath = (category: string) => `/results/${encodeURIComponent(category)}`;

test.describe("home carousel", () => {
  test("has five slides and no dots or thumbnails", async ({ page, pageErrors }) => {
    await open(page, "/");
    const carousel = page.getByRole("region", { name: "Featured" });
    await expect(slides(page)).toHaveCount(5);
    await expect(carousel.locator('[data-selected="true"]')).toHaveCount(1);
    expect(await selectedSlide(page)).toBe(0);
    // Each slide is one picture with its words over it as text (the picture itself is decoration);
    // nothing else is drawn as a thumbnail.
    await expect(carousel.locator("img")).toHaveCount(5);
    for (const img of await carousel.locator("img").all()) await expect(img).toHaveAttribute("alt", "");
    await expect(slides(page).first().getByText("New season fashion", { exact: true })).toBeVisible();
    expect(await slides(page).first().getByText("New season fashion", { exact: true }).evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(16);
    // No indicators: no tabs, no dot buttons; the only controls are the two arrows.
    await expect(carousel.getByRole("tablist")).toHaveCount(0);
    await expect(carousel.getByRole("tab")).toHaveCount(0);
    await expect(carousel.locator("button")).toHaveCount(2);
    await expect(carousel.getByRole("button")).toHaveText(["‹", "›"]);
    await expect(carousel.getByRole("button", { name: "Previous slide", exact: true })).toBeVisible();
    await expect(carousel.getByRole("button", { name: "Next slide", exact: true })).toBeVisible();
    expect(pageErrors).toEqual([]);
  });

  test("plays on its own, one slide after another, fetching its engine only when the first slide has to move", async ({ page, pageErrors }) => {
    // Time passes on the page's fake clock, not the test's: no waiting for real seconds. It stands
    // still between the steps, so "just before the first autoplay step" is exact.
    await page.clock.install({ time: CLOCK_START });
    await page.clock.pauseAt(CLOCK_START + 1_000);
    const fetched = engineRequests(page);
    await open(page, "/");
    expect(await selectedSlide(page)).toBe(0);
    await expect(slides(page).nth(0)).toBeInViewport({ ratio: 0.9 });
    // The first load carries no carousel code: the first slide is plain server-rendered HTML.
    await page.clock.runFor(AUTOPLAY_MS - 100);
    expect(fetched).toEqual([]);
    await expect(page.getByRole("region", { name: "Featured" })).toHaveAttribute("data-engine", "waiting");

    // Autoplay every 5 s: at the first step the engine comes and the second slide comes up without
    // anyone touching the page...
    await page.clock.runFor(100);
    await engineStarted(page);
    expect(fetched).toHaveLength(1);
    await expect.poll(() => selectedSlide(page)).toBe(1);
    await page.clock.runFor(TRANSITION_MS);
    await expect(slides(page).nth(1)).toBeInViewport({ ratio: 0.9 });
    await expect(slides(page).nth(0)).not.toBeInViewport();
    // ...and then the third, moved by the engine's own autoplay: it keeps cycling.
    await page.clock.runFor(AUTOPLAY_STEP_MS);
    await expect.poll(() => selectedSlide(page)).toBe(2);
    await expect(slides(page).nth(2)).toBeInViewport({ ratio: 0.9 });
    await expect(page.getByRole("region", { name: "Featured" }).locator('[data-selected="true"]')).toHaveCount(1);
    expect(fetched).toHaveLength(1);
    expect(pageErrors).toEqual([]);
  });

  test("fetches its engine as soon as the shopper reaches for it, without an extra step", async ({ page, pageErrors }) => {
    await page.clock.install();
    const fetched = engineRequests(page);
    await open(page, "/");
    await page.getByRole("region", { name: "Featured" }).hover();
    await engineStarted(page);
    expect(fetched).toHaveLength(1);
    expect(await selectedSlide(page)).toBe(0);
    // Its first autoplay step comes from the engine alone: one slide, not two.
    await page.mouse.move(0, 0);
    await page.clock.runFor(AUTOPLAY_STEP_MS);
    await expect.poll(() => selectedSlide(page)).toBe(1);
    expect(pageErrors).toEqual([]);
  });

  test("stays still for visitors who prefer reduced motion, and the arrows loop", async ({ page, pageErrors }) => {
    await page.clock.install();
    await page.emulateMedia({ reducedMotion: "reduce" });
    await open(page, "/");
    // Count every change of the selected slide from now on.
    await page.evaluate(() => {
      const record = window as unknown as { slideChanges: number };
      record.slideChanges = 0;
      const carousel = document.querySelector('[aria-label="Featured"]');
      if (!carousel) throw new Error("no carousel");
      new MutationObserver((changes) => {
        record.slideChanges += changes.length;
      }).observe(carousel, { attributes: true, attributeFilter: ["data-selected"], subtree: true });
    });
    // Longer than one autoplay interval (5 s) plus the slide transition: nothing may move.
    await page.clock.runFor(AUTOPLAY_STEP_MS);
    expect(await page.evaluate(() => (window as unknown as { slideChanges: number }).slideChanges)).toBe(0);
    expect(await selectedSlide(page)).toBe(0);

    // The carousel itself is alive: the arrows move it, and going back from the first slide loops to the last.
    await page.getByRole("button", { name: "Next slide", exact: true }).click();
    await expect.poll(() => selectedSlide(page)).toBe(1);
    await page.getByRole("button", { name: "Previous slide", exact: true }).click();
    await expect.poll(() => selectedSlide(page)).toBe(0);
    await page.getByRole("button", { name: "Previous slide", exact: true }).click();
    await expect.poll(() => selectedSlide(page)).toBe(4);
    await page.clock.runFor(TRANSITION_MS);
    await expect(slides(page).nth(4)).toBeInViewport({ ratio: 0.9 });
    expect(pageErrors).toEqual([]);
  });
});

test.describe("home page", () => {
  test("shows the four category tiles with their Shop Now links", async ({ page }) => {
    await open(page, "/");
    const tiles = page.getByRole("region", { name: "Shop by category" }).getByRole("article");
    await expect(tiles).toHaveCount(4);
    await expect(tiles.getByRole("heading")).toHaveText(TILES.map((tile) => tile.title));
    for (const tile of TILES) {
      const link = page.getByRole("link", { name: `Shop Now: ${tile.title}`, exact: true });
      await expect(link).toHaveText("Shop Now");
      await expect(link).toHaveAttribute("href", resultsPath(tile.category));
      await expect(link).toBeVisible();
    }
  });

  for (const tile of TILES) {
    test(`the "${tile.title}" tile opens the ${tile.category} results`, async ({ page, pageErrors }) => {
      await open(page, "/");
      await page.getByRole("link", { name: `Shop Now: ${tile.title}`, exact: true }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Results" })).toBeVisible();
      expect(decodeURIComponent(new URL(page.url()).pathname)).toBe(`/results/${tile.category}`);
      await expect.poll(() => cardTitles(page)).toEqual(sortedTitles(inCategory(tile.category)));
      expect(pageErrors).toEqual([]);
    });
  }

  test("lists every catalogue product as a card with its title, rating, price and Add to cart", async ({ page, pageErrors }) => {
    await open(page, "/");
    const grid = page.getByRole("region", { name: "All products" });
    await expect(grid.getByRole("article")).toHaveCount(products.length);
    for (const product of products) {
      const productCard = card(grid, product);
      await expect(productCard).toHaveCount(1);
      await expect(productCard.getByRole("heading")).toHaveText(product.title);
      await expect(productCard.getByRole("link", { name: product.title, exact: true })).toHaveAttribute("href", `/products/${product.id}`);
      await expect(productCard.getByRole("img", { name: product.title, exact: true })).toBeVisible();
      await expect(productCard.getByText(formatPrice(product), { exact: true })).toBeVisible();
      const rate = (Math.round(product.rating.rate * 10) / 10).toFixed(1);
      await expect(productCard.getByRole("img", { name: `Rated ${rate} out of 5`, exact: true })).toBeVisible();
      await expect(productCard).toContainText(`${product.rating.count.toLocaleString("en-US")} reviews`);
      // A low-stock product may be sold out by the stock journeys (e2e/stock.spec.ts) running alongside.
      const add = productCard.getByRole("button", { name: product.stock > 5 ? "Add to cart" : /^(Add to cart|Out of stock)$/, exact: true });
      await expect(add).toBeVisible();
    }
    // The thousands separator of the dearest product.
    const dearest = products.reduce((a, b) => (b.price > a.price ? b : a));
    if (dearest.price >= 1000) expect(formatPrice(dearest)).toMatch(/^\$\d{1,3}(,\d{3})+\.\d{2}$/);
    expect(pageErrors).toEqual([]);
  });

  test("card images have explicit sizes and load once scrolled into view", async ({ page }) => {
    await open(page, "/");
    const images = page.getByRole("main").locator("img");
    const count = await images.count();
    expect(count).toBeGreaterThan(products.length);
    // Every picture reserves its space before it loads.
    for (let i = 0; i < count; i++) {
      await expect(images.nth(i)).toHaveAttribute("width", /^\d+$/);
      await expect(images.nth(i)).toHaveAttribute("height", /^\d+$/);
    }
    for (const product of products) {
      const image = card(page, product).getByRole("img", { name: product.title, exact: true });
      await image.scrollIntoViewIfNeeded();
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { message: `${product.title} image loads` }).toBeGreaterThan(0);
    }
  });
});

test.describe("category results", () => {
  for (const category of categories) {
    test(`/results/${category} lists exactly the ${category} products, without Add to cart`, async ({ page, pageErrors }) => {
      await open(page, resultsPath(category));
      await expect(page.getByRole("heading", { level: 1, name: "Results" })).toBeVisible();
      await expect(page.getByRole("main")).toContainText(category);
      expect(await cardTitles(page)).toEqual(sortedTitles(inCategory(category)));
      for (const product of inCategory(category)) {
        await expect(card(page, product).getByText(formatPrice(product), { exact: true })).toBeVisible();
      }
      await expect(page.getByRole("button", { name: "Add to cart" })).toHaveCount(0);
      expect(pageErrors).toEqual([]);
    });
  }

  test("an unknown category says it has no products", async ({ page }) => {
    await open(page, "/results/toys");
    await expect(page.getByText("No products found in the toys category.", { exact: true })).toBeVisible();
    await expect(page.getByRole("main").getByRole("article")).toHaveCount(0);
  });
});

test.describe("product page", () => {
  const long = products.find((p) => p.description.length > 160);
  const short = products.find((p) => p.description.length <= 140);

  test("a long description is cut, and Show More / Show Less toggle the whole text", async ({ page, pageErrors }) => {
    if (!long) throw new Error("the catalogue has no product with a description over 160 characters");
    await open(page, `/products/${long.id}`);
    const productCard = card(page, long);
    const text = productCard.getByRole("paragraph");
    const toggle = productCard.getByRole("button", { name: /^Show (More|Less)$/ });

    await expect(toggle).toHaveText("Show More");
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    const cut = (await text.textContent()) ?? "";
    expect(cut).toMatch(/…$/);
    expect(cut.length).toBeLessThan(long.description.length);
    expect(long.description.startsWith(cut.slice(0, -1))).toBe(true);

    await toggle.click();
    await expect(toggle).toHaveText("Show Less");
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await expect(text).toHaveText(long.description);

    await toggle.click();
    await expect(toggle).toHaveText("Show More");
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(text).toHaveText(cut);
    expect(pageErrors).toEqual([]);
  });

  test("a short description is shown whole, without Show More", async ({ page }) => {
    if (!short) throw new Error("the catalogue has no product with a short description");
    await open(page, `/products/${short.id}`);
    await expect(card(page, short).getByRole("paragraph")).toHaveText(short.description);
    await expect(page.getByRole("button", { name: /^Show (More|Less)$/ })).toHaveCount(0);
  });

  test("shows the product with its title, price, JSON-LD and meta description", async ({ page, pageErrors }) => {
    const product = products.reduce((a, b) => (b.price > a.price ? b : a));
    const response = await open(page, `/products/${product.id}`);
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(`${product.title} | Storefront`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(product.title);
    const productCard = card(page, product);
    await expect(productCard.getByText(formatPrice(product), { exact: true })).toBeVisible();
    await expect(productCard.getByRole("button", { name: "Add to cart", exact: true })).toBeVisible();

    const description = await page.locator('meta[name="description"]').getAttribute("content");
    expect(description?.trim().length).toBeGreaterThan(0);
    // At most 160 characters, cut at a word boundary and marked with an ellipsis when cut.
    const metaText = (description ?? "").replace(/…$/, "");
    expect(metaText.length).toBeLessThanOrEqual(160);
    expect(product.description.startsWith(metaText)).toBe(true);
    if (metaText.length < product.description.length) {
      expect(description).toMatch(/…$/);
      expect(product.description.slice(metaText.length)).toMatch(/^[\s,.;:]/);
    }

    const jsonLd = page.locator('script[type="application/ld+json"]');
    // The product, then its breadcrumbs (a BreadcrumbList).
    await expect(jsonLd).toHaveCount(2);
    const data = JSON.parse((await jsonLd.first().textContent()) ?? "") as {
      "@context": string;
      "@type": string;
      name: string;
      image: string;
      offers: { price: string | number; priceCurrency: string };
      aggregateRating: { ratingValue: number; reviewCount: number };
    };
    expect(data["@context"]).toBe("https://schema.org");
    expect(data["@type"]).toBe("Product");
    expect(data.name).toBe(product.title);
    expect(Number(data.offers.price)).toBe(product.price);
    expect(data.offers.priceCurrency).toBe("USD");
    expect(data.aggregateRating.ratingValue).toBe(product.rating.rate);
    expect(data.aggregateRating.reviewCount).toBe(product.rating.count);
    // The structured data points at the very picture the page shows.
    const shown = await productCard.getByRole("img", { name: product.title, exact: true }).getAttribute("src");
    expect(new URL(data.image).pathname).toBe(new URL(shown ?? "", page.url()).pathname);
    expect(pageErrors).toEqual([]);
  });

  for (const id of ["9999", "abc"]) {
    test(`/products/${id} is a 404 saying Product not found.`, async ({ page }) => {
      const response = await page.goto(`/products/${id}`);
      expect(response?.status()).toBe(404);
      await expect(page.getByText("Product not found.", { exact: true })).toBeVisible();
      await expect(page.getByRole("banner")).toBeVisible();
      await expect(page.getByRole("main").getByRole("article")).toHaveCount(0);
    });
  }
});

for (const [label, viewport] of Object.entries(viewports)) {
  test.describe(`catalogue screens at ${label} width (${viewport.width} px)`, () => {
    test.use({ viewport });

    test("home, a category and a product page render without overflow", async ({ page, pageErrors }, testInfo) => {
      const product = products.find((p) => p.description.length > 160) ?? products[0]!;
      const pages = [
        { name: "home", url: "/", heading: page.getByRole("region", { name: "All products" }).getByRole("article").first() },
        { name: "category", url: resultsPath(categories[0]!), heading: page.getByRole("heading", { level: 1, name: "Results" }) },
        { name: "product", url: `/products/${product.id}`, heading: page.getByRole("heading", { level: 1, name: product.title }) },
      ];
      for (const { name, url, heading } of pages) {
        await open(page, url);
        await expect(heading).toBeVisible();
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(scrollWidth, `${name} page must not scroll sideways`).toBeLessThanOrEqual(viewport.width);
        // Let lazy pictures come in before the full-page picture.
        for (const img of await page.getByRole("main").getByRole("article").locator("img").all()) await img.scrollIntoViewIfNeeded();
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: testInfo.outputPath(`${name}-${label}.png`), fullPage: true });
      }
      expect(pageErrors).toEqual([]);
    });
  });
}

test.describe("loading indicator", () => {
  test("a centred spinner shows while a client-side navigation fetches, and goes when the page arrives", async ({ page, pageErrors }) => {
    await open(page, "/");
    // Hold the category's route data back for a moment, as a slow network would.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/results/**", async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("link", { name: "Shop Now: Electronics" }).click();
    const spinner = page.getByRole("status").filter({ hasText: "Loading" });
    await expect(spinner).toBeVisible();
    const box = await spinner.locator(".spinner__wheel").boundingBox();
    const viewport = page.viewportSize()!;
    expect(Math.abs(box!.x + box!.width / 2 - viewport.width / 2)).toBeLessThan(2);
    expect(Math.abs(box!.y + box!.height / 2 - viewport.height / 2)).toBeLessThan(2);
    release();
    await expect(page.getByRole("heading", { name: "Results", level: 1 })).toBeVisible();
    await expect(spinner).toHaveCount(0);
    expect(pageErrors).toEqual([]);
  });
});
