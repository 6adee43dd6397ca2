import type { Route } from "./+types/results";
import { HydrateLater, cardTurn } from "../components/HydrateLater.tsx";
import { ProductCard } from "../components/ProductCard.tsx";
import { pageMeta } from "../meta.ts";

export const handle = { shell: true };

export const meta: Route.MetaFunction = ({ params }) =>
  pageMeta(`Results for ${params.categoryName}`, `Browse ${params.categoryName} at Storefront.`);

export async function loader({ context, params }: Route.LoaderArgs) {
  const category = params.categoryName;
  return { category, products: await context.catalogue.inCategory(category) };
}

export default function Results({ loaderData: { category, products } }: Route.ComponentProps) {
  return (
    <section className="results">
      <h1 className="page-title">Results</h1>
      <p className="results__category">{category}</p>
      {products.length === 0 ? (
        <p className="panel">No products found in the {category} category.</p>
      ) : (
        <ul className="product-grid">
          {products.map((product, i) => (
            // Cards hydrate after the rest of the page, a few per task (HydrateLater.tsx).
            <HydrateLater key={product.id} group={cardTurn(i)}>
              <li>
                <ProductCard product={product} headingLevel={2} />
              </li>
            </HydrateLater>
          ))}
        </ul>
      )}
    </section>
  );
}
