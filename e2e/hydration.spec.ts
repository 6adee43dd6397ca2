// The home page hydrates in turns (app/components/HydrateLater.tsx): the header first, then the
// page's content, the product cards after it. These journeys check that nothing the server drew is
// rebuilt, and that every part works once the document says it has hydrated.
import { card, cartCount, expect, expectCartCount, products, test, waitForHydration } from "./support.ts";

declare global {
  interface Window {
    __hydrationLog?: { liveInTask: number[]; mainChanges: string[] };
  }
}

test("the home page's product cards hydrate in place after the first paint, and all work", async ({ page, pageErrors }) => {
  await page.addInitScript(() => {
    const log = { liveInTask: [] as number[], mainChanges: [] as string[] };
    window.__hydrationLog = log;
    // A count of the page's tasks: each message posted is handled in a task of its own.
    let task = 0;
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      task++;
      if (!document.documentElement?.hasAttribute("data-hydrated")) channel.port2.postMessage(null);
    };
    channel.port2.postMessage(null);
    // Anything hydration adds to or removes from the page's content once the parser is done, and
    // the task in which each card's button went live (its card has hydrated: ProductCard.tsx).
    document.addEventListener("DOMContentLoaded", () => {
      const main = document.getElementById("main");
      if (!main) return;
      new MutationObserver((records) => {
        for (const record of records) {
          if (record.type === "attributes" && (record.target as Element).matches(".product-grid .card__add")) log.liveInTask.push(task);
          for (const node of [...record.addedNodes, ...record.removedNodes]) {
            if (node.nodeType === Node.ELEMENT_NODE) log.mainChanges.push((node as Element).outerHTML.slice(0, 80));
          }
        }
      }).observe(main, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-live"] });
    });
  });
  await page.goto("/");
  await waitForHydration(page);

  const log = await page.evaluate(() => window.__hydrationLog!);
  const buttons = await page.locator(".product-grid .card__add:not([disabled])").count();
  expect(buttons).toBeGreaterThan(4);
  // Every card's button went live (its card hydrated) before the document said it had hydrated,
  // after the page had painted: in a later task than the document's first.
  expect(log.liveInTask).toHaveLength(buttons);
  expect(Math.min(...log.liveInTask)).toBeGreaterThan(0);
  // Hydrated in place: not one element of the page's content was rebuilt.
  expect(log.mainChanges).toEqual([]);
  // Every card is the app's by now: its button is live.
  await expect(page.locator(".product-grid .card__add:not([disabled]):not([data-live])")).toHaveCount(0);

  // The last card, hydrated last, adds to the basket and opens its product page in the app.
  const last = products.at(-1)!;
  await card(page, last).getByRole("button", { name: "Add to cart", exact: true }).click();
  await expectCartCount(page, 1);
  await card(page, last).getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/products/${last.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: last.title })).toBeVisible();
  // A client navigation: the basket is still there (a full load would have forgotten it).
  await expect(cartCount(page)).toHaveText("1");
  expect(pageErrors).toEqual([]);
});

test("a card that has taken over gets its own taps while other parts are still to hydrate", async ({ page, pageErrors }) => {
  await page.goto("/");
  await waitForHydration(page);
  const first = products[0]!;
  const button = card(page, first).getByRole("button", { name: "Add to cart", exact: true });
  await expect(button).toHaveAttribute("data-live", "");
  // As between a card's turn and the last one: the document not yet marked as hydrated, so the
  // early-tap script (app/basket/early-taps.ts) is still listening. It must leave this tap alone.
  await page.evaluate(() => document.documentElement.removeAttribute("data-hydrated"));
  await button.click();
  await expectCartCount(page, 1);
  await expect(button).not.toHaveAttribute("data-tapped-early");
  expect(pageErrors).toEqual([]);
});
