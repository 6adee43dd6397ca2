import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/products-new";
import { requireAdmin } from "../../admin/guard.ts";
import { EMPTY_PRODUCT, ProductFields, productFormValues } from "../../admin/ProductFields.tsx";
import { Spinner } from "../../components/Spinner.tsx";
import { pageMeta } from "../../meta.ts";

export const handle = { shell: false };

export const meta: Route.MetaFunction = () => pageMeta("Add a product", "Add a product to the shop.");

export async function loader({ context }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  return { categories: await admin.products.categories(), source: admin.products.source };
}

export async function action({ context, request }: Route.ActionArgs) {
  const admin = requireAdmin(context);
  const values = productFormValues(await request.formData());
  const outcome = await admin.products.create(admin.actor, values);
  if (outcome.ok) return redirect(`/admin/products/${outcome.product.id}`);
  return data({ message: outcome.message, values }, { status: outcome.status });
}

export default function NewProduct({ loaderData: { categories, source }, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  return (
    <section aria-labelledby="new-heading">
      <p className="admin-products__back">
        <Link to="/admin/products">All products</Link>
      </p>
      <h1 id="new-heading">Add a product</h1>
      {source.editable ? (
        <Form method="post" className="product-form admin-products__new">
          <ProductFields values={actionData?.values ?? EMPTY_PRODUCT} categories={categories} describedBy="new-message" />
          <div id="new-message">
            {actionData && !busy && (
              <p className="error-text" role="alert">
                {actionData.message}
              </p>
            )}
          </div>
          <button type="submit" className="button-primary" disabled={busy}>
            {busy && <Spinner inline label="Saving" />}
            Add product
          </button>
        </Form>
      ) : (
        <p className="admin-products__notice">{source.reason}</p>
      )}
    </section>
  );
}
