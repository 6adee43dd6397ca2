import { Form, Link } from "react-router";
import type { Route } from "./+types/products";
import { PRODUCTS_PER_PAGE, productListHref, productQuery, SORT_LABELS } from "../../admin/product-query.ts";
import { ExportLinks } from "../../admin/ExportLinks.tsx";
import { requireAdmin } from "../../admin/guard.ts";
import { AdminTable } from "../../admin/ui.tsx";
import { Price } from "../../components/Price.tsx";
import { pageMeta } from "../../meta.ts";
import { formatCount } from "../../text.ts";

export const handle = { shell: false };

export const meta: Route.MetaFunction = () => pageMeta("Products", "Every product of the shop.");

export async function loader({ context, request }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  const query = productQuery(new URL(request.url).searchParams);
  const [list, categories] = await Promise.all([admin.products.list({ ...query, limit: PRODUCTS_PER_PAGE }), admin.products.categories()]);
  return { list, query: { ...query, page: list.page }, categories, source: admin.products.source, lowStock: admin.lowStockThreshold };
}

/** The stock on hand, marked when it is gone or low (at or below LOW_STOCK_THRESHOLD). */
function Stock({ units, lowStock }: { units: number | null; lowStock: number }) {
  if (units === null) return <>Not tracked</>;
  if (units <= 0) return <span className="admin-stock admin-stock--out">0, sold out</span>;
  if (units <= lowStock) return <span className="admin-stock admin-stock--low">{formatCount(units)}, low</span>;
  return <>{formatCount(units)}</>;
}

/** The heading, the ways to add products where the catalogue is the shop's own, or why it is not. */
function ProductsTop({ source }: { source: Route.ComponentProps["loaderData"]["source"] }) {
  return (
    <>
      <div className="admin-products__top">
        <h1 id="products-heading">Products</h1>
        {source.editable && (
          <span className="admin-products__actions">
            <Link className="button-secondary" to="/admin/products/import">
              Import products
            </Link>
            <Link className="button-primary" to="/admin/products/new">
              Add a product
            </Link>
          </span>
        )}
      </div>
      {!source.editable && <p className="admin-products__notice">{source.reason}</p>}
    </>
  );
}

export default function AdminProducts({ loaderData: { list, query, categories, source, lowStock } }: Route.ComponentProps) {
  const found = `${formatCount(list.total)} ${list.total === 1 ? "product" : "products"}`;
  return (
    <section aria-labelledby="products-heading">
      <ProductsTop source={source} />
      <Form method="get" className="admin-products__filters" role="search" aria-label="Products">
        <div>
          <label htmlFor="products-q">Title</label>
          <input id="products-q" type="search" name="q" defaultValue={query.q} maxLength={200} />
        </div>
        <div>
          <label htmlFor="products-category">Category</label>
          <select id="products-category" name="category" defaultValue={query.category}>
            <option value="">All categories</option>
            {categories.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="products-sort">Sort by</label>
          <select id="products-sort" name="sort" defaultValue={query.sort}>
            {Object.entries(SORT_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button-secondary">
          Show
        </button>
      </Form>
      <p className="admin-products__count" role="status">
        {found}
        {list.pages > 1 && `, page ${list.page} of ${list.pages}`}
      </p>
      {list.products.length > 0 && (
        <AdminTable
          labelledBy="products-heading"
          columns={["Product", "Category", "Price", "Stock", "Held", "Status"]}
          rows={list.products.map((product) => ({
            key: product.id,
            cells: [
              <span key="name" className="admin-products__name">
                <img src={product.image} alt="" width={40} height={40} loading="lazy" />
                {source.editable ? <Link to={`/admin/products/${product.id}`}>{product.title}</Link> : product.title}
              </span>,
              product.category,
              <Price key="price" cents={product.priceCents} />,
              <Stock key="stock" units={product.stock} lowStock={lowStock} />,
              product.reserved,
              product.archived ? "Archived" : "On sale",
            ],
          }))}
        />
      )}
      {list.pages > 1 && (
        <nav className="admin__pager admin-products__pager" aria-label="Pages">
          {list.page > 1 && <Link to={productListHref({ ...query, page: list.page - 1 })}>Previous page</Link>}
          {list.page < list.pages && <Link to={productListHref({ ...query, page: list.page + 1 })}>Next page</Link>}
        </nav>
      )}
      {source.editable && <ExportLinks />}
    </section>
  );
}
