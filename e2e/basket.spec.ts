import type { Locator, Page } from "@playwright/test";
import {
  card,
  cartCount,
  cartLink,
  categories,
  expect,
  expectCartCount,
  formatCents,
  inCategory,
  open,
  productPriced,
  products,
  test,
  toCents,
  viewports,
  waitForHydration,
} from "./support.ts";
import type { CatalogueProduct } from "./support.ts";

const addToCart = (scope: Page | Locator, product: CatalogueProduct): Locator =>
  card(scope, product).getByRole("button", { name: "Add to cart", exact: true });

const quantity = (page: Page, product: CatalogueProduct): Locator =>
  page.getByRole("status", { name: `Quantity of ${product.title}`, exact: true });

const increase = (page: Page, product: CatalogueProduct): Locator =>
  page.getByRole("button", { name: `Increase quantity of ${product.title}`, exact: true });

const decrease = (page: Page, product: CatalogueProduct): Locator =>
  page.getByRole("button", { name: `Decrease quantity of ${product.title}`, exact: true });

const subtotal = (page: Page): Locator =>
  page.getByRole("complementary", { name: "Basket summary" }).getByText(/^Subtotal/);

const basketLines = (page: Page): Locator => page.getByRole("main").getByRole("article");

/** What the summary should read for these lines: N distinct lines, total exact to the cent. */
function subtotalText(lines: [CatalogueProduct, number][]): string {
  const cents = lines.reduce((sum, [product, amount]) => sum + toCents(product.price) * amount, 0);
  return `Subtotal (${lines.length} ${lines.length === 1 ? "item" : "items"}): ${formatCents(cents)}`;
}

/** On the cart page: these lines, their quantities, the header count (sum of amounts) and the subtotal. */
async function expectBasket(page: Page, lines: [CatalogueProduct, number][]) {
  await expect(basketLines(page)).toHaveCount(lines.length);
  for (const [product, amount] of lines) await expect(quantity(page, product)).toHaveText(String(amount));
  await expectCartCount(page, lines.reduce((sum, [, amount]) => sum + amount, 0));
  await expect(subtotal(page)).toHaveText(subtotalText(lines));
}

async function goToCart(page: Page) {
  await cartLink(page).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByRole("heading", { level: 1, name: "Hello, Your shopping basket" })).toBeVisible();
}

/** Three products from three different categories; the first is the dearest (thousands separator). */
function threeProducts(): [CatalogueProduct, CatalogueProduct, CatalogueProduct] {
  const dearest = products.reduce((a, b) => (b.price > a.price ? b : a));
  const others = categories.filter((c) => c !== dearest.category).map((c) => inCategory(c)[0]!);
  if (others.length < 2) throw new Error("the catalogue needs at least three categories");
  return [dearest, others[0]!, others[1]!];
}

test("basket journey: add from home and product page, change quantities, empty, and a reload forgets it", async ({ page, pageErrors }, testInfo) => {
  const [twice, second, third] = threeProducts();

  await open(page, "/");
  await expectCartCount(page, 0);
  await addToCart(page, twice).click();
  await expectCartCount(page, 1);
  await addToCart(page, second).click();
  await expectCartCount(page, 2);
  await addToCart(page, third).click();
  await expectCartCount(page, 3);

  // To the product page by its picture: a client-side navigation, so the basket is kept.
  await card(page, twice).getByRole("link", { name: twice.title, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/products/${twice.id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(twice.title);
  await expect(page.getByRole("heading", { level: 1 })).toBeInViewport();
  await expect(page).toHaveTitle(`${twice.title} | Storefront`);
  await expectCartCount(page, 3);
  await addToCart(page, twice).click();
  await expectCartCount(page, 4);
  await expect(cartLink(page)).toHaveAccessibleName("Cart, 4 items");
  // The browser's Back button is a client-side navigation too.
  await page.goBack();
  await expect(page.getByRole("region", { name: "All products" })).toBeVisible();
  await expectCartCount(page, 4);

  await goToCart(page);
  expect((await basketLines(page).getByRole("heading").allTextContents()).sort()).toEqual(
    [twice.title, second.title, third.title].sort(),
  );
  const lines: [CatalogueProduct, number][] = [
    [twice, 2],
    [second, 1],
    [third, 1],
  ];
  await expectBasket(page, lines);
  expect(subtotalText(lines)).toMatch(/^Subtotal \(3 items\): \$/);
  // Each line is the product card with its price and description, and no Add to cart.
  for (const product of [twice, second, third]) {
    await expect(card(page, product).getByText(formatCents(toCents(product.price)), { exact: true })).toBeVisible();
    await expect(card(page, product).getByRole("paragraph")).toContainText(product.description.slice(0, 40));
  }
  await expect(page.getByRole("main").getByRole("button", { name: "Add to cart" })).toHaveCount(0);
  await expect(page.getByRole("checkbox", { name: "This order contains a gift" })).not.toBeChecked();
  await expect(page.getByRole("link", { name: "Continue to checkout", exact: true })).toHaveAttribute("href", "/payment");
  await page.screenshot({ path: testInfo.outputPath("cart-journey-filled.png"), fullPage: true });

  // + on a line: its quantity, the header count and the subtotal follow; still three lines.
  await increase(page, second).click();
  await expectBasket(page, [
    [twice, 2],
    [second, 2],
    [third, 1],
  ]);

  // − on a line above 1 lowers it.
  await decrease(page, twice).click();
  await expectBasket(page, [
    [twice, 1],
    [second, 2],
    [third, 1],
  ]);

  // − on a line at 1 removes it.
  await decrease(page, third).click();
  await expect(card(page, third)).toHaveCount(0);
  await expectBasket(page, [
    [twice, 1],
    [second, 2],
  ]);

  // Taking everything out leaves the empty basket.
  await decrease(page, second).click();
  await expectBasket(page, [
    [twice, 1],
    [second, 1],
  ]);
  await decrease(page, second).click();
  await expect(card(page, second)).toHaveCount(0);
  await expectBasket(page, [[twice, 1]]);
  await decrease(page, twice).click();
  await expectBasket(page, []);
  await expect(page.getByText("Oops! No item in your cart.", { exact: true })).toBeVisible();
  await expect(subtotal(page)).toHaveText("Subtotal (0 items): $0.00");
  // Nothing to buy: no way to checkout, a way back to the shop instead.
  await expect(page.getByRole("link", { name: "Continue to checkout", exact: true })).toHaveCount(0);
  await expect(page.getByRole("main").getByRole("link", { name: "Continue shopping", exact: true })).toHaveAttribute("href", "/");

  // The basket lives in memory only: add again, reload, and it is empty.
  await page.getByRole("link", { name: "Storefront home", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await addToCart(page, third).click();
  await expectCartCount(page, 1);
  await expect(cartLink(page)).toHaveAccessibleName("Cart, 1 item");
  await page.reload();
  await waitForHydration(page);
  await expectCartCount(page, 0);
  await goToCart(page);
  await expect(page.getByText("Oops! No item in your cart.", { exact: true })).toBeVisible();
  expect(pageErrors).toEqual([]);
});

test.describe("subtotals are exact to the cent", () => {
  test("$15.99 + $64.00 = $79.99", async ({ page, pageErrors }) => {
    const a = productPriced(15.99);
    const b = productPriced(64);
    await open(page, "/");
    await addToCart(page, a).click();
    await addToCart(page, b).click();
    await expectCartCount(page, 2);
    await goToCart(page);
    await expect(subtotal(page)).toHaveText("Subtotal (2 items): $79.99");
    expect(subtotalText([[a, 1], [b, 1]])).toBe("Subtotal (2 items): $79.99");
    expect(pageErrors).toEqual([]);
  });

  test("3 x $9.85 = $29.55", async ({ page, pageErrors }) => {
    const tee = productPriced(9.85);
    await open(page, "/");
    for (let i = 1; i <= 3; i++) {
      await addToCart(page, tee).click();
      await expectCartCount(page, i);
    }
    await expect(cartLink(page)).toHaveAccessibleName("Cart, 3 items");
    await goToCart(page);
    await expect(basketLines(page)).toHaveCount(1);
    await expect(quantity(page, tee)).toHaveText("3");
    await expect(subtotal(page)).toHaveText("Subtotal (1 item): $29.55");
    expect(pageErrors).toEqual([]);
  });
});

test("Add to cart works from the keyboard", async ({ page, pageErrors }) => {
  const product = products[0]!;
  await open(page, "/");
  // Tab from the card's picture link reaches its Add to cart button.
  await card(page, product).getByRole("link", { name: product.title, exact: true }).focus();
  await page.keyboard.press("Tab");
  const button = addToCart(page, product);
  await expect(button).toBeFocused();
  await page.keyboard.press("Enter");
  await expectCartCount(page, 1);
  await expect(page.getByRole("banner").getByText("1 item in your cart", { exact: true })).toHaveCount(1);
  await page.keyboard.press("Space");
  await expectCartCount(page, 2);
  await expect(button).toBeFocused();

  // And from the cart, the + button by keyboard as well.
  await cartLink(page).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/cart$/);
  await increase(page, product).focus();
  await page.keyboard.press("Enter");
  await expect(quantity(page, product)).toHaveText("3");
  await expectCartCount(page, 3);
  expect(pageErrors).toEqual([]);
});

for (const [label, viewport] of Object.entries(viewports)) {
  test.describe(`filled cart at ${label} width (${viewport.width} px)`, () => {
    test.use({ viewport });

    test("shows every line with its controls and the summary", async ({ page, pageErrors }, testInfo) => {
      const picked = threeProducts();
      await open(page, "/");
      for (const product of picked) await addToCart(page, product).click();
      await expect(cartCount(page)).toHaveText("3");
      await goToCart(page);
      await expect(basketLines(page)).toHaveCount(3);
      await expect(subtotal(page)).toHaveText(subtotalText(picked.map((p) => [p, 1])));
      for (const product of picked) {
        for (const control of [increase(page, product), decrease(page, product), quantity(page, product)]) {
          await expect(control).toBeVisible();
          const box = await control.boundingBox();
          expect(box && box.x >= 0 && box.x + box.width <= viewport.width, `${product.title} controls fit the screen`).toBe(true);
        }
      }
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth, "the cart must not scroll sideways").toBeLessThanOrEqual(viewport.width);
      for (const img of await basketLines(page).locator("img").all()) await img.scrollIntoViewIfNeeded();
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: testInfo.outputPath(`cart-filled-${label}.png`), fullPage: true });
      expect(pageErrors).toEqual([]);
    });
  });
}

test("taps on Add to cart before the page has hydrated still land in the basket, once each", async ({ page, pageErrors }) => {
  // Hold the app's scripts back, as a slow phone does: the server-rendered page is up, React is not.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/assets/*.js", async (route) => {
    await released;
    await route.continue();
  });
  const [first, second] = [products[0]!, products[4]!];
  await page.goto("/", { waitUntil: "domcontentloaded" });
  await expect(page.locator("html[data-hydrated]")).toHaveCount(0);
  await addToCart(page, first).click();
  await addToCart(page, second).click();
  await addToCart(page, first).click();
  await expect(cartCount(page)).toHaveText("0");
  // Each tapped button shows at once that it counted, before anything else can.
  await expect(addToCart(page, first)).toHaveAttribute("data-tapped-early", "");
  await expect(addToCart(page, second)).toHaveAttribute("data-tapped-early", "");
  await expect(addToCart(page, products[1]!)).not.toHaveAttribute("data-tapped-early");

  release();
  await waitForHydration(page);
  await expectCartCount(page, 3);
  await expect(addToCart(page, first)).not.toHaveAttribute("data-tapped-early");
  // After hydration the button is React's again: one more tap is one more item, not two.
  await addToCart(page, second).click();
  await expectCartCount(page, 4);
  await cartLink(page).click();
  await expect(quantity(page, first)).toHaveText("2");
  await expect(quantity(page, second)).toHaveText("2");
  expect(pageErrors).toEqual([]);
});
