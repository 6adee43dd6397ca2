import { data } from "react-router";
import type { Route } from "./+types/product";
import { inStock } from "../../lib/stock.ts";
import { resultsPath } from "../components/list-query.ts";
import { ProductCard } from "../components/ProductCard.tsx";
import { pageMeta } from "../meta.ts";
import { shorten } from "../text.ts";

export const handle = { shell: true };

export async function loader({ context, params }: Route.LoaderArgs) {
  const product = await context.catalogue.product(params.productId);
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

// The image takes up to 420 px beside the text, the whole width of a small phone below it (app.css).
const PRODUCT_IMAGE_SIZES = "(max-width: 480px) 100vw, 420px";

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
      // Stock that is not tracked (null) is unlimited: in stock.
      availability: inStock(product.stock) ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
    },
    // Search engines reject a rating of no reviews: a product without reviews has no aggregateRating.
    ...(product.rating.count > 0 && {
      aggregateRating: { "@type": "AggregateRating", ratingValue: product.rating.rate, reviewCount: product.rating.count },
    }),
  };
  // Where the product sits in the shop, so search engines can show the path to it.
  const breadcrumbs = {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: [
      { name: "Home", item: `${origin}/` },
      { name: product.category, item: `${origin}${resultsPath(product.category)}` },
      { name: product.title, item: `${origin}/products/${product.id}` },
    ].map((crumb, i) => ({ "@type": "ListItem", position: i + 1, ...crumb })),
  };
  return (
    <div className="product-page">
      <ProductCard product={product} showDescription showAdd showStock priority headingLevel={1} imageSizes={PRODUCT_IMAGE_SIZES} />
      <JsonLd data={jsonLd} />
      <JsonLd data={breadcrumbs} />
    </div>
  );
}

function JsonLd({ data }: { data: object }) {
  return (
    <script
      type="application/ld+json"
      // JSON.stringify leaves "<" as is; escaping it keeps a title from closing the script element.
      dangerouslySetInnerHTML={{ __html: JSON.stringify(data).replace(/</g, "\\u003c") }}
    />
  );
}
