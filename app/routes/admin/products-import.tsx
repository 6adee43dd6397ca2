import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/products-import";
import { countsLine, problemLines } from "../../../lib/catalogue-file.ts";
import { ExportLinks } from "../../admin/ExportLinks.tsx";
import { requireAdmin } from "../../admin/guard.ts";
import { Spinner } from "../../components/Spinner.tsx";
import { pageMeta } from "../../meta.ts";

export const handle = { shell: false };

export const meta: Route.MetaFunction = () => pageMeta("Import products", "Load products from a catalogue file.");

/** The columns a file may have: catalogue/products.json's fields (the rating's two as CSV names them). */
const COLUMNS = "id, title, price, description, category, image, rating_rate, rating_count, stock";

export async function loader({ context }: Route.LoaderArgs) {
  return { source: requireAdmin(context).products.source };
}

/** The upload, imported as it arrives: the counts, every bad row, or why the file was not read. */
export async function action({ context, request }: Route.ActionArgs) {
  const admin = requireAdmin(context);
  const outcome = await admin.products.importFile(admin.actor, request);
  // Each import's own id: the form is drawn anew after it, its file chosen no longer (a second click must not load it twice).
  if (outcome.ok) return { done: `Imported: ${countsLine(outcome)}.`, problems: [], id: crypto.randomUUID() };
  if ("problems" in outcome) {
    const lines = problemLines(outcome.problems, outcome.unlisted);
    return data({ error: "Nothing was imported: these rows are not right.", problems: lines }, { status: 422 });
  }
  return data({ error: outcome.message, problems: [] }, { status: outcome.status });
}

function Outcome({ result }: { result: Route.ComponentProps["actionData"] }) {
  return (
    <div id="import-outcome">
      <p role="status" className={result && "done" in result ? "admin-notice" : "admin-notice admin-notice--empty"}>
        {result && "done" in result ? result.done : null}
      </p>
      {result && "error" in result && (
        <div role="alert" className="admin-import__problems">
          <p className="error-text">{result.error}</p>
          {result.problems.length > 0 && (
            <ul>
              {result.problems.map((line, i) => (
                <li key={i}>{line}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}

export default function ImportProducts({ loaderData: { source }, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  return (
    <section aria-labelledby="import-heading">
      <p className="admin-products__back">
        <Link to="/admin/products">All products</Link>
      </p>
      <h1 id="import-heading">Import products</h1>
      {source.editable ? (
        <Form key={actionData && "id" in actionData ? actionData.id : "import"} method="post" encType="multipart/form-data" className="admin-import" aria-describedby="import-help">
          <div id="import-help">
            <p>
              A JSON array or a CSV file with a header row. Its columns: {COLUMNS}. A product with an id is updated; a row without one is added. Every row
              is checked first: when one is not right, nothing is written.
            </p>
          </div>
          <label htmlFor="import-file">Catalogue file (.csv or .json)</label>
          <input id="import-file" type="file" name="file" accept=".csv,.json,text/csv,application/json" required aria-describedby="import-outcome" />
          <button type="submit" className="button-primary" disabled={busy}>
            {busy && <Spinner inline label="Importing" />}
            Import
          </button>
        </Form>
      ) : (
        <p className="admin-products__notice">{source.reason}</p>
      )}
      {!busy && <Outcome result={actionData} />}
      <ExportLinks />
    </section>
  );
}
