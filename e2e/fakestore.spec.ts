import type { Page } from "@playwright/test";
import type { FakeStoreProduct } from "../server/catalogue/product.ts";
import { fakeStoreProducts } from "../test/support/fakestore-host.ts";
import { startFakeStoreShop } from "../test/support/fakestore-shop.ts";
import { expect, test, viewports, waitForHydration } from "./support.ts";

// The shop as a new user runs it against a FakeStore mirror: the production build over a local host
// serving the real fakestoreapi.com dataset, its photos on a local image host. Two products are
// added for the edges: a title with one long unbroken word (and no reviews, and a photo that cannot
// be fetched), and a title far longer than a card has room for.
const UNBROKEN = "Ultracompactwaterproofbreathablelightweightpackableshelljacket";
const EXTRAS = (imageOrigin: string): FakeStoreProduct[] => [
  {
    id: 21,
    title: `${UNBROKEN} for hiking`,
    price: 89.5,
    description: "A jacket whose name is one long word.",
    category: "men's clothing",
    image: `${imageOrigin}/img/gone.gif`, // the image host has no such picture
    rating: { rate: 0, count: 0 },
  },
  {
    id: 22,
    title: `Extra Wide Curved Gaming Monitor ${"with Every Feature a Spec Sheet Could Ever List, ".repeat(5)}and a Stand`,
    price: 1299,
    description: "A title far longer than a card has room for.",
    category: "electronics",
    image: `${imageOrigin}/img/extra-wide.png`,
    rating: { rate: 4.2, count: 12 },
  },
];

const dataset = fakeStoreProducts();
let shop: Awaited<ReturnType<typeof startFakeStoreShop>>;

test.describe.configure({ mode: "default" });
test.beforeAll(async () => {
  shop = await startFakeStoreShop({ extraProducts: EXTRAS });
});
test.afterAll(() => shop.close());

/**
 * Brings every lazy image into view until each has loaded. A quick scroll can pass an image before
 * the browser asks for it, so each check scrolls to the first one still loading.
 */
async function loadEveryImage(page: Page) {
  // The first visit fetches and resizes every photo: give it time on a busy machine.
  await expect
    .poll(
      () =>
        page.locator("main img.card__image").evaluateAll((all) => {
          const loading = all.find((img) => !(img as HTMLImageElement).complete);
          loading?.scrollIntoView({ block: "center" });
          return loading === undefined;
        }),
      { timeout: 60_000 },
    )
    .toBe(true);
  await page.evaluate(() => window.scrollTo(0, 0));
}

for (const [name, viewport] of Object.entries(viewports)) {
  test(`home on the FakeStore data (${name}): every product, every image from our origin, titles that fit their cards`, async ({ page, pageErrors }) => {
    test.setTimeout(240_000);
    await page.setViewportSize(viewport);
    const imageOrigins = new Set<string>();
    page.on("response", (response) => {
      if (response.request().resourceType() === "image") imageOrigins.add(new URL(response.url()).origin);
    });
    await page.goto(`${shop.url}/`);
    await waitForHydration(page);
    await loadEveryImage(page);

    const cards = page.locator("main article.card");
    await expect(cards).toHaveCount(22);
    for (const product of dataset) await expect(page.getByRole("article", { name: product.title.trim(), exact: true })).toBeVisible();
    // Every picture, the placeholder included, came from our own origin and shows.
    expect([...imageOrigins]).toEqual([shop.url]);
    const images = await page.locator("main img.card__image").evaluateAll((all) =>
      all.map((img) => {
        const image = img as HTMLImageElement;
        return { src: image.currentSrc, shown: image.naturalWidth > 0, width: image.clientWidth, height: image.clientHeight };
      }),
    );
    for (const image of images) {
      expect(image.src.startsWith(`${shop.url}/images/remote/`), image.src).toBe(true);
      expect(image.shown, image.src).toBe(true);
      // The same square for every card, the placeholder's as well: nothing moves when one fails.
      expect([image.width, image.height]).toEqual([images[0]!.width, images[0]!.width]);
    }
    // The photo that cannot be fetched shows the placeholder in its place.
    const gone = page.getByRole("article", { name: EXTRAS(shop.images.url)[0]!.title, exact: true }).locator("img");
    const answer = await page.request.get(await gone.evaluate((img: HTMLImageElement) => img.currentSrc));
    expect([answer.status(), answer.headers()["content-type"]]).toEqual([503, "image/svg+xml"]);

    // Titles wrap inside their card, long words too, and stop after three lines.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    const titles = await page.locator("main .card__title").evaluateAll((all) =>
      all.map((title) => {
        const card = title.closest("article")!.getBoundingClientRect();
        const box = title.getBoundingClientRect();
        const lines = box.height / parseFloat(getComputedStyle(title).lineHeight);
        return { text: title.textContent, inside: box.left >= card.left && box.right <= card.right, overflowX: title.scrollWidth > title.clientWidth, lines };
      }),
    );
    for (const title of titles) {
      expect(title.inside && !title.overflowX, title.text ?? "").toBe(true);
      expect(title.lines, title.text ?? "").toBeLessThanOrEqual(3.05);
    }
    // The clamped title is whole where it counts: the card's and the image link's accessible names.
    const long = EXTRAS(shop.images.url)[1]!.title;
    await expect(page.getByRole("article", { name: long, exact: true }).getByRole("link", { name: long, exact: true })).toBeVisible();
    // The one error is the browser noting the missing photo's 503.
    expect(pageErrors).toEqual([expect.stringMatching(/^console\.error: Failed to load resource: .* 503 .*\/images\/remote\/[\w-]+\/\d+\)$/)]);
  });
}

test("a product page on the FakeStore data shows its photo at the page's size, from our origin", async ({ page, pageErrors }) => {
  const product = dataset[13]!;
  await page.goto(`${shop.url}/products/${product.id}`);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(product.title.trim());
  const image = page.locator("main img.card__image");
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 30_000 }).toBe(true);
  const { src, width } = await image.evaluate((img: HTMLImageElement) => ({ src: img.currentSrc, width: img.clientWidth }));
  expect(src.startsWith(`${shop.url}/images/remote/`)).toBe(true);
  // The browser picked a picture at least as wide as it shows it.
  expect(Number(src.split("/").pop())).toBeGreaterThanOrEqual(width);
  expect(pageErrors).toEqual([]);
});
