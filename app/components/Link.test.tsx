import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { Link as RouterLink, type LinkProps, MemoryRouter, Route, Routes } from "react-router";
import { describe, expect, it } from "vitest";
import { Link, ServerLink } from "./Link.tsx";

function inRouter(link: ReactNode, { at = "/products/1", basename }: { at?: string; basename?: string } = {}): string {
  return renderToString(
    <MemoryRouter initialEntries={[at]} basename={basename}>
      <Routes>
        <Route path="products/:productId" element={link} />
        <Route path="*" element={link} />
      </Routes>
    </MemoryRouter>,
  );
}

const both = (props: LinkProps, options?: { at?: string; basename?: string }) => ({
  ours: inRouter(<ServerLink {...props} />, options),
  reactRouters: inRouter(<RouterLink {...props} />, options),
});

describe("ServerLink", () => {
  it.each<[string, LinkProps]>([
    ["the home page", { to: "/", className: "header__logo header__box", "aria-label": "Storefront home", children: <img src="/logo.svg" alt="" /> }],
    ["a product", { to: "/products/1", className: "card__image-link", children: "Rucksack" }],
    ["a category, hidden from the tab order", { to: "/results/men's clothing", className: "tile__image", tabIndex: -1, "aria-hidden": "true", children: "x" }],
    ["a link with a target", { to: "/cart", target: "_blank", title: "Cart", children: "Cart" }],
    ["a link with its attributes before and after to", { className: "a", to: "/auth", id: "b", children: "Sign in" }],
    ["a file-like path", { to: "/assets/list.v2.json", children: "list" }],
    ["a link with a click handler and Link's defaults spelled out", { to: "/orders", onClick: () => {}, discover: "render", prefetch: "none", children: "Orders" }],
  ])("renders %s as React Router's Link does", (_name, props) => {
    const { ours, reactRouters } = both(props);
    expect(ours).toBe(reactRouters);
    expect(ours).toContain(`href="${String(props.to).replace(/'/g, "&#x27;")}"`);
  });

  it.each<[string, LinkProps, { at?: string; basename?: string }?]>([
    ["a relative path", { to: "2", children: "next" }],
    ["a parent path", { to: "../orders", children: "orders" }],
    ["a dot segment", { to: "/products/./1", children: "one" }],
    ["a trailing slash", { to: "/products/", children: "all" }],
    ["a double slash", { to: "//example.com/x", children: "out" }],
    ["an absolute URL", { to: "https://example.com/", children: "out" }],
    ["a search", { to: "/search?q=bag", children: "bags" }],
    ["a hash", { to: "/products/1#reviews", children: "reviews" }],
    ["an object", { to: { pathname: "/cart", search: "?a=1" }, children: "cart" }],
    ["reloadDocument", { to: "/cart", reloadDocument: true, children: "cart" }],
    ["discover none", { to: "/cart", discover: "none", children: "cart" }],
    ["prefetch on intent", { to: "/cart", prefetch: "intent", children: "cart" }],
    ["prefetch on render", { to: "/cart", prefetch: "render", children: "cart" }],
    ["state", { to: "/cart", state: { from: "home" }, children: "cart" }],
    ["a path relative to the route", { to: "/cart", relative: "path", children: "cart" }],
    ["a basename", { to: "/cart", children: "cart" }, { at: "/shop/cart", basename: "/shop" }],
  ])("leaves %s to React Router's Link", (_name, props, options) => {
    const { ours, reactRouters } = both(props, options);
    expect(ours).toBe(reactRouters);
  });

  it("is the shop's Link on the server (this test runs as the server build does)", () => {
    expect(import.meta.env.SSR).toBe(true);
    expect(Link).toBe(ServerLink);
  });
});
