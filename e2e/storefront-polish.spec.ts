import { card, cartLink, expect, expectCartCount, open, productById, registerAccount, test, viewports } from "./support.ts";

// What a shopper notices around the spec's texts: the cart laid out for a wide screen, the way back
// to the shop from an empty cart or order list, stock on every card, a line's quantity with its details.

// 3 in stock as the catalogue ships it; the stock journeys, which may run meanwhile, sell it out.
const RING = productById(8);

test("the cart at 1280 px puts each line's picture beside its title, price and controls", async ({ page }) => {
  await page.setViewportSize(viewports.desktop);
  await open(page, "/");
  await card(page, productById(1)).getByRole("button", { name: "Add to cart", exact: true }).click();
  await expectCartCount(page, 1);
  await cartLink(page).click();
  // The cart page itself, not the home page's card of the same product while the cart loads.
  await expect(page).toHaveURL(/\/cart$/);
  const increaseButton = page.getByRole("button", { name: `Increase quantity of ${productById(1).title}` });
  await expect(increaseButton).toBeVisible();
  const line = card(page, productById(1));
  const picture = (await line.getByRole("img", { name: productById(1).title }).boundingBox())!;
  const title = (await line.getByRole("heading", { name: productById(1).title }).boundingBox())!;
  expect(picture.x + picture.width).toBeLessThanOrEqual(title.x);
  expect(title.y).toBeLessThan(picture.y + picture.height);
  const increase = (await increaseButton.boundingBox())!;
  expect(increase.y).toBeLessThan(picture.y + picture.height);
});

test("an empty order list links back to the shop", async ({ page }) => {
  await registerAccount(page);
  await open(page, "/orders");
  await expect(page.getByText("You don't have orders yet.", { exact: true })).toBeVisible();
  await page.getByRole("main").getByRole("link", { name: "Continue shopping", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("cards on home and category pages say when few are left, as the product page does", async ({ page }) => {
  for (const path of ["/", `/results/${encodeURIComponent(RING.category)}`, `/products/${RING.id}`]) {
    await open(page, path);
    await expect(card(page, RING).getByText(/^(Only [1-3] left in stock\.|Currently unavailable\.)$/), path).toBeVisible();
  }
});

test("Quantity sits with the item's details on checkout and orders", async ({ page }) => {
  await registerAccount(page);
  await open(page, "/");
  await card(page, productById(2)).getByRole("button", { name: "Add to cart", exact: true }).click();
  await expectCartCount(page, 1);
  await cartLink(page).click();
  await page.getByRole("link", { name: "Continue to checkout", exact: true }).click();
  await expect(card(page, productById(2)).getByText("Quantity: 1", { exact: true })).toBeVisible();
});
