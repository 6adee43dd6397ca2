import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/products-edit";
import { requireAdmin } from "../../admin/guard.ts";
import { ProductFields, type ProductFormValues, productFormValues } from "../../admin/ProductFields.tsx";
import { Spinner } from "../../components/Spinner.tsx";
import { pageMeta } from "../../meta.ts";

export const handle = { shell: false };

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta(loaderData ? `Edit ${loaderData.product.title}` : "Edit product", "Change a product of the shop.");

function productId(raw: string): number {
  if (!/^\d{1,9}$/.test(raw) || Number(raw) === 0) throw data(null, { status: 404 });
  return Number(raw);
}

export async function loader({ context, params }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  const [product, categories] = await Promise.all([admin.products.get(productId(params.productId)), admin.products.categories()]);
  if (!product) throw data(null, { status: 404 });
  return { product, categories, source: admin.products.source };
}

const INTENTS = ["save", "archive", "unarchive", "image"] as const;
type Intent = (typeof INTENTS)[number];
const DONE: Record<Intent, string> = {
  save: "Saved.",
  archive: "Archived: the product is gone from the shop, and stays on the orders that have it.",
  unarchive: "The product is on sale again.",
  image: "Picture saved.",
};

const BAD_VERSION = "This form does not say which version of the product it shows. Please reload the page and try again.";

/**
 * The version the page's form was showing: digits only. Anything else is refused, never read as
 * "no version", which would skip the check that nobody changed the product meanwhile.
 */
function formVersion(form: FormData): number | null {
  const raw = form.get("version");
  const version = typeof raw === "string" && /^\d{1,15}$/.test(raw) ? Number(raw) : 0;
  return version >= 1 ? version : null;
}

type Outcome =
  | { ok: true; intent: Intent; message: string }
  | { ok: false; intent: Intent; message: string; version: number; values: ProductFormValues | null; stockWas: string | null };

/** Every change the page makes carries the version the page was showing: someone else's change in between is refused. */
export async function action({ context, params, request }: Route.ActionArgs) {
  const admin = requireAdmin(context);
  const id = productId(params.productId);
  const form = await request.formData();
  const intent = INTENTS.find((name) => name === form.get("intent"));
  if (!intent) throw data(null, { status: 400 });
  // The stock the form was showing: a save moves the stock by what the admin changed, not to it.
  const shownStock = form.get("stockWas");
  const stockWas = typeof shownStock === "string" && shownStock !== "" ? shownStock : null;
  const version = formVersion(form);
  if (version === null) {
    const refused: Outcome = { ok: false, intent, message: BAD_VERSION, version: 0, values: intent === "save" ? productFormValues(form) : null, stockWas };
    return data(refused, { status: 400 });
  }
  const { products, actor } = admin;
  let outcome;
  if (intent === "save") outcome = await products.update(actor, id, { ...productFormValues(form), version, ...(stockWas === null ? {} : { stockWas }) });
  else if (intent === "image") {
    const file = form.get("image");
    outcome =
      file instanceof File && file.size > 0
        ? await products.uploadImage(actor, id, new Uint8Array(await file.arrayBuffer()), version)
        : ({ ok: false, status: 400, message: "Choose a picture to upload." } as const);
  } else outcome = await products.setArchived(actor, id, intent === "archive", version);
  if (outcome.ok) return { ok: true, intent, message: DONE[intent] } satisfies Outcome;
  const refused: Outcome = { ok: false, intent, message: outcome.message, version, values: intent === "save" ? productFormValues(form) : null, stockWas };
  return data(refused, { status: outcome.status });
}

export default function EditProduct({ loaderData: { product, categories, source }, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" ? String(navigation.formData?.get("intent")) : null;
  const refused = actionData && !actionData.ok ? actionData : null;
  // After a refusal the page keeps what it was showing, so a second try is refused the same way until a reload.
  const version = refused ? refused.version : product.version;
  const stockWas = refused ? refused.stockWas : product.stock === null ? null : String(product.stock);
  const values: ProductFormValues = refused?.values ?? { title: product.title, price: (product.priceCents / 100).toFixed(2), description: product.description, category: product.category, stock: String(product.stock ?? 0) };
  const message = (intent: Intent) =>
    // Once the page shows what the change made: React Router hands over the action's answer while
    // it is still reloading the page's data (the old picture, version and figures).
    actionData?.intent === intent && navigation.state === "idle" ? (
      <p className={actionData.ok ? "admin-products__done" : "error-text"} role={actionData.ok ? "status" : "alert"}>
        {actionData.message}
      </p>
    ) : null;
  const button = (intent: Intent, label: string, className = "button-secondary") => (
    <button type="submit" name="intent" value={intent} className={className} disabled={busy !== null}>
      {busy === intent && <Spinner inline label="Saving" />}
      {label}
    </button>
  );
  return (
    <section aria-labelledby="product-heading">
      <p className="admin-products__back">
        <Link to="/admin/products">All products</Link>
      </p>
      <h1 id="product-heading">{product.title}</h1>
      {!source.editable && <p className="admin-products__notice">{source.reason}</p>}
      <p className="admin-products__meta">
        Product {product.id} · version {product.version} · {product.archived ? "Archived" : "On sale"} · {product.reserved} held by checkouts
      </p>
      <div className="admin-products__edit">
        <Form method="post" className="product-form" key={`fields-${product.version}`} aria-labelledby="details-heading">
          <h2 id="details-heading">Details</h2>
          <input type="hidden" name="version" value={version} />
          {stockWas !== null && <input type="hidden" name="stockWas" value={stockWas} />}
          <ProductFields values={values} categories={categories} describedBy="save-message" />
          <div id="save-message">{message("save")}</div>
          {button("save", "Save changes", "button-primary")}
        </Form>
        <div className="admin-products__side">
          <Form method="post" encType="multipart/form-data" className="product-form" aria-labelledby="picture-heading">
            <h2 id="picture-heading">Picture</h2>
            <img className="admin-products__picture" src={product.image} alt={`Picture of ${product.title}`} width={160} height={160} />
            <input type="hidden" name="version" value={version} />
            <label htmlFor="product-image">PNG, JPEG or WebP, up to 5 MB</label>
            <input id="product-image" type="file" name="image" accept="image/png,image/jpeg,image/webp" required aria-describedby="image-message" />
            <div id="image-message">{message("image")}</div>
            {button("image", "Upload picture")}
          </Form>
          <Form method="post" className="product-form" aria-labelledby="sale-heading">
            <h2 id="sale-heading">On sale</h2>
            <p>{product.archived ? "Archived: not in the shop, its search or its API. Orders keep it." : "In the shop, its search and its API."}</p>
            <input type="hidden" name="version" value={version} />
            {message(product.archived ? "unarchive" : "archive") ?? message(product.archived ? "archive" : "unarchive")}
            {product.archived ? button("unarchive", "Put back on sale") : button("archive", "Archive product")}
          </Form>
        </div>
      </div>
    </section>
  );
}
