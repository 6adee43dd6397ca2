import { Form, useSubmit } from "react-router";
import type { ListSort } from "../../server/catalogue/listing.ts";
import { SORT_CHOICES } from "./list-query.ts";

/**
 * The order of a category's products: a GET form, so choosing and pressing "Sort" works without
 * JavaScript; once hydrated, choosing submits at once. A new order starts at page 1.
 */
export function SortForm({ sort }: { sort: ListSort }) {
  const submit = useSubmit();
  return (
    <Form method="get" className="sort-form">
      <label htmlFor="sort">Sort by</label>
      {/* Keyed by the order shown, so going back to another order shows that one chosen. */}
      <select key={sort} id="sort" name="sort" defaultValue={sort} onChange={(event) => void submit(event.currentTarget.form)}>
        {SORT_CHOICES.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
      <button type="submit" className="button-secondary">
        Sort
      </button>
    </Form>
  );
}
