import { data } from "react-router";
import type { Route } from "./+types/product";
import { ProductCard } from "../components/ProductCard.tsx";
import { pageMeta } from "../meta.ts";
import { shorten } from "../text.ts";
import { parseProductId } from "../../server/catalogue/product.ts";
import { readCatalogue } from "../catalogue.server.ts";

export async function loader({ context, params }: Route.LoaderArgs) {
  const id = parseProductId(params.productId);
  const product = id === null ? null : await readCatalogue(context, (catalogue) => catalogue.byId(id), null);
  if (!product) return data({ product: null, origin: "" }, { status: 404 });
  return { product, origin: context.publicUrl };
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const product = loaderData?.product;
  if (!product) return pageMeta("Product not found", "This product is not in our catalogue.");
  return [
    ...pageMeta(product.title, shorten(product.description, 160)),
    // /products/017 and /products/17 are one product: tell search engines which address is its own.
    { tagName: "link", rel: "canonical", href: `${loaderData.origin}/products/${product.id}` },
    { property: "og:title", content: product.title },
    { property: "og:type", content: "product" },
  ];
};

export default function ProductPage({ loaderData: { product, origin } }: Route.ComponentProps) {
  if (!product) return <p className="panel">Product not found.</p>;
  // schema.org Product, so search engines can show the price and rating.
  const jsonLd = {
    "@context": "https://schema.org",
    "@type": "Product",
    name: product.title,
    description: product.description,
    image: new URL(product.image, origin).href,
    category: product.category,
    offers: {
      "@type": "Offer",
      price: (product.priceCents / 100).toFixed(2),
      priceCurrency: "USD",
      availability: "https://schema.org/InStock",
    },
    aggregateRating: { "@type": "AggregateRating", ratingValue: product.rating.rate, reviewCount: product.rating.count },
  };
  return (
    <div className="product-page">
      <ProductCard product={product} showDescription showAdd priority headingLevel={1} />
      <script
        type="application/ld+json"
        // JSON.stringify leaves "<" as is; escaping it keeps a title from closing the script element.
        dangerouslySetInnerHTML={{ __html: JSON.stringify(jsonLd).replace(/</g, "\\u003c") }}
      />
    </div>
  );
}
