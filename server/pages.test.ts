import { describe, expect, it } from "vitest";
import { fromShell } from "./pages.ts";

describe("the pages a signed-in visitor gets from a personal shell", () => {
  it("are the catalogue's pages, the cart and the language page", () => {
    for (const path of ["/", "/products/1", "/results/men's%20clothing", "/search", "/cart", "/language"]) expect(fromShell(path), path).toBe(true);
  });

  it("are never a page that reads the user, a data request, another case or a deeper path", () => {
    const never = ["/orders", "/payment", "/auth", "/auth/reset", "/sign-out", "/admin", "/admin/products/1", "/products/1.data", "/_root.data", "/CART", "/Products/1", "/products/1/", "/products/1/x", "/products/", "/nowhere"];
    for (const path of never) expect(fromShell(path), path).toBe(false);
  });
});
