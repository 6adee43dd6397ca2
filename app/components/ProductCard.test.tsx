import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { StoreProvider } from "../basket/store.tsx";
import { ProductCard, type ProductCardProps } from "./ProductCard.tsx";

const product = {
  id: 7,
  title: "Classic Cable Chain Bracelet",
  priceCents: 123400,
  description: "A timeless cable-link bracelet in 18k gold plating over sterling silver, finished with a sturdy lobster clasp. At 7.5 inches it sits comfortably on most wrists and layers well.",
  image: "/images/products/7.svg?v=abc",
  rating: { rate: 4.26, count: 1200 },
};

function render(props: Partial<ProductCardProps> = {}): string {
  return renderToStaticMarkup(
    <MemoryRouter>
      <StoreProvider user={null}>
        <ProductCard product={product} {...props} />
      </StoreProvider>
    </MemoryRouter>,
  );
}

describe("ProductCard", () => {
  it("shows the image linking to the product page, the title, rating, review count and price", () => {
    const html = render();
    expect(html).toContain('<a class="card__image-link" href="/products/7"');
    expect(html).toContain('alt="Classic Cable Chain Bracelet" width="400" height="400"');
    expect(html).toContain("<h3 class=\"card__title\">Classic Cable Chain Bracelet</h3>");
    expect(html).toContain('aria-label="Rated 4.3 out of 5"');
    // 4.3 of 5 stars is 86 of the 100-unit-wide star row.
    expect(html).toContain('<rect width="86" height="20">');
    expect(html).toContain("1,200");
    expect(html).toContain("$1,234.00");
  });

  it("has no description and no button by default (the results page's card)", () => {
    const html = render();
    expect(html).not.toContain("card__description");
    expect(html).not.toContain("Add to cart");
    expect(html).not.toContain("card--flex");
  });

  it("shows the Add to cart button when asked", () => {
    expect(render({ showAdd: true })).toContain(">Add to cart</button>");
  });

  it("shows a long description cut, with Show More", () => {
    const html = render({ showDescription: true });
    expect(html).toContain("A timeless cable-link bracelet");
    expect(html).not.toContain("layers well.");
    expect(html).toContain('aria-expanded="false">Show More</button>');
  });

  it("shows a short description whole, without a toggle", () => {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <StoreProvider user={null}>
          <ProductCard product={{ ...product, description: "Gold, and short." }} showDescription />
        </StoreProvider>
      </MemoryRouter>,
    );
    expect(html).toContain("<p>Gold, and short.</p>");
    expect(html).not.toContain("Show More");
  });

  it("lays the image beside the text in the flexed variant (checkout and orders)", () => {
    expect(render({ flex: true })).toContain('class="card card--flex"');
  });

  it("gives the browser the image's widths and how wide the card shows it, where the product has them", () => {
    const srcSet = "/images/remote/k/240 240w, /images/remote/k/480 480w, /images/remote/k/960 960w";
    const card = (props: Partial<ProductCardProps>) =>
      renderToStaticMarkup(
        <MemoryRouter>
          <StoreProvider user={null}>
            <ProductCard product={{ ...product, image: "/images/remote/k/480", imageSrcSet: srcSet }} {...props} />
          </StoreProvider>
        </MemoryRouter>,
      );
    expect(card({})).toContain(`src="/images/remote/k/480" srcSet="${srcSet}" sizes="(max-width: 600px) 45vw, 220px"`);
    expect(card({ flex: true })).toContain('sizes="(max-width: 600px) 200px, 160px"');
    expect(card({ imageSizes: "420px" })).toContain('sizes="420px"');
    // A drawing scales by itself: no srcset, no sizes.
    expect(render()).not.toMatch(/srcSet|sizes=/);
  });

  it("takes the heading level of the page it sits on", () => {
    expect(render({ headingLevel: 1 })).toContain('<h1 class="card__title">');
  });

  it("says on every card when few or none are left, and fades the picture of one sold out", () => {
    const few = render({ product: { ...product, stock: 3 } });
    expect(few).toContain(">Only 3 left in stock.</div>");
    expect(render({ product: { ...product, stock: 40 } })).not.toContain("card__stock");
    const none = render({ product: { ...product, stock: 0 } });
    expect(none).toContain(">Currently unavailable.</div>");
    expect(none).toContain('class="card card--out"');
    expect(render({ product: { ...product, stock: 40 }, showStock: true })).toContain(">In stock</div>");
  });

  it("shows more of the item's details after its price", () => {
    const html = render({ flex: true, children: <p className="basket-lines__quantity">Quantity: 2</p> });
    expect(html.indexOf("Quantity: 2")).toBeGreaterThan(html.indexOf("card__price"));
    expect(html.indexOf("Quantity: 2")).toBeLessThan(html.indexOf("</article>"));
  });
});
