import { data, Link } from "react-router";
import type { Route } from "./+types/search";
import type { TitlePart } from "../../server/search/service.ts";
import { PAGE_SIZE, pagedTitle, parsePage } from "../components/list-query.ts";
import { Pager } from "../components/Pager.tsx";
import { ProductCard } from "../components/ProductCard.tsx";
import { pageMeta } from "../meta.ts";

export const handle = { shell: true };

// Search pages are endless and thin: keep them out of search engines' indexes.
const NOINDEX = { name: "robots", content: "noindex" };

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const query = loaderData?.query;
  if (!query) return [...pageMeta("Search", "Search the Storefront catalogue."), NOINDEX];
  return [...pageMeta(pagedTitle(`Results for "${query}"`, loaderData.page), `Products at Storefront matching "${query}".`), NOINDEX];
};

export const headers: Route.HeadersFunction = () => ({ "X-Robots-Tag": "noindex" });

// The best matches, a list page's worth at a time: "Previous" and "Next" as on the list pages.
export async function loader({ context, request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const page = parsePage(params.get("page"));
  if (page === null) throw data(null, { status: 404 });
  const found = await context.search.query(params.get("q") ?? "", PAGE_SIZE, (page - 1) * PAGE_SIZE);
  const pages = Math.max(1, Math.ceil(found.total / PAGE_SIZE));
  // A page that is not there is the shop's "Page not found" (root.tsx), with its 404.
  if (page > pages) throw data(null, { status: 404 });
  return { ...found, page, pages };
}

const results = (n: number) => `${n} ${n === 1 ? "result" : "results"}`;

/** The title with the query's words in <mark>; React escapes every part. */
function MarkedTitle({ parts }: { parts: TitlePart[] }) {
  return parts.map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : part.text));
}

export default function Search({ loaderData: { query, total, hits, page, pages } }: Route.ComponentProps) {
  if (!query) {
    return (
      <section className="panel narrow search-message">
        <h1>Search</h1>
        <p>Type what you are looking for in the search box above, for example "headphones".</p>
      </section>
    );
  }
  if (hits.length === 0) {
    return (
      <section className="panel narrow search-message">
        <h1 className="search__heading">No results for "{query}".</h1>
        <p>
          Check the spelling or try fewer words, or <Link to="/">browse all products</Link>.
        </p>
      </section>
    );
  }
  return (
    <section className="results search">
      <h1 className="page-title search__heading">
        {results(total)} for "<span className="search__query">{query}</span>"
      </h1>
      <ul className="product-grid">
        {hits.map(({ product, title }) => (
          <li key={product.id}>
            <ProductCard product={product} headingLevel={2} highlightedTitle={<MarkedTitle parts={title} />} />
          </li>
        ))}
      </ul>
      <Pager path="/search" page={page} pages={pages} />
    </section>
  );
}
