/** The values the product form starts from: a product's, or what the admin sent when it was refused. */
export interface ProductFormValues {
  title: string;
  price: string;
  description: string;
  category: string;
  stock: string;
}

export const EMPTY_PRODUCT: ProductFormValues = { title: "", price: "", description: "", category: "", stock: "0" };

/** A posted product form's fields, as the service reads them (it checks them: the browser's checks are only a help). */
export function productFormValues(form: FormData): ProductFormValues {
  const text = (name: keyof ProductFormValues) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  return { title: text("title"), price: text("price"), description: text("description"), category: text("category"), stock: text("stock") };
}

/** The fields of the create and edit forms; `describedBy` names the form's error message. */
export function ProductFields({ values, categories, describedBy }: { values: ProductFormValues; categories: string[]; describedBy: string }) {
  return (
    <div className="product-form__fields">
      <label htmlFor="product-title">Title</label>
      <input id="product-title" name="title" defaultValue={values.title} required maxLength={500} aria-describedby={describedBy} />
      <label htmlFor="product-price">Price (US dollars)</label>
      <input id="product-price" name="price" defaultValue={values.price} required inputMode="decimal" pattern="\d+(\.\d{1,2})?" aria-describedby={describedBy} />
      <label htmlFor="product-category">Category</label>
      <select id="product-category" name="category" defaultValue={values.category} required aria-describedby={describedBy}>
        <option value="" disabled>
          Choose a category
        </option>
        {categories.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
      <label htmlFor="product-stock">Stock (units on hand)</label>
      <input id="product-stock" name="stock" type="number" min={0} step={1} defaultValue={values.stock} required aria-describedby={describedBy} />
      <label htmlFor="product-description">Description</label>
      <textarea id="product-description" name="description" defaultValue={values.description} rows={6} maxLength={10_000} aria-describedby={describedBy} />
    </div>
  );
}
