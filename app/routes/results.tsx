import { data } from "react-router";
import type { Route } from "./+types/results";
import { HydrateLater, cardTurn } from "../components/HydrateLater.tsx";
import { canonicalHref, PAGE_SIZE, pagedTitle, parsePage, parseSort, resultsPath } from "../components/list-query.ts";
import { Pager } from "../components/Pager.tsx";
import { ProductCard } from "../components/ProductCard.tsx";
import { SortForm } from "../components/SortForm.tsx";
import { pageMeta } from "../meta.ts";

export const handle = { shell: true };

export const meta: Route.MetaFunction = ({ params, loaderData }) => {
  if (!loaderData) return [];
  return [
    ...pageMeta(pagedTitle(`Results for ${params.categoryName}`, loaderData.page), `Browse ${params.categoryName} at Storefront.`),
    { tagName: "link", rel: "canonical", href: loaderData.canonical },
  ];
};

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const category = params.categoryName;
  const query = new URL(request.url).searchParams;
  const number = parsePage(query.get("page"));
  const sort = parseSort(query.get("sort"));
  // A page that is not there is the shop's "Page not found" (root.tsx), with its 404.
  if (number === null) throw data(null, { status: 404 });
  const { products, page, pages } = await context.catalogue.page(category, sort, number, PAGE_SIZE);
  if (page > pages) throw data(null, { status: 404 });
  return { category, products, sort, page, pages, canonical: canonicalHref(context.publicUrl, resultsPath(category), sort, page) };
}

export default function Results({ loaderData: { category, products, sort, page, pages } }: Route.ComponentProps) {
  return (
    <section className="results">
      <h1 className="page-title">Results</h1>
      <p className="results__category">{category}</p>
      {products.length === 0 ? (
        <p className="panel">No products found in the {category} category.</p>
      ) : (
        <>
          <SortForm sort={sort} />
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
          <Pager path={resultsPath(category)} page={page} pages={pages} />
        </>
      )}
    </section>
  );
}
