import { Link } from "react-router";
import type { Route } from "./+types/audit";
import type { FieldChange } from "../../admin/changes.ts";
import { requireAdmin } from "../../admin/guard.ts";
import { AdminTable, When } from "../../admin/ui.tsx";
import { entryWords, productIdsOf, targetWords } from "../../admin/words.ts";
import { pageMeta } from "../../meta.ts";

export const handle = { shell: false };

export const meta: Route.MetaFunction = () => pageMeta("Audit log", "Every change made in the back office.");

const PAGE = 25;

export async function loader({ context, request }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  const before = new URL(request.url).searchParams.get("before") ?? undefined;
  const page = await admin.audit.page({ limit: PAGE, before });
  // A cursor that is not one of ours: the first page, rather than an error.
  const shown = page.ok ? page : await admin.audit.page({ limit: PAGE });
  const entries = shown.ok ? shown.entries : [];
  // Entries name products by id: their titles, read once for the page.
  const titles = await admin.productTitles(entries.flatMap(productIdsOf));
  return { entries, next: shown.ok ? shown.next : null, titles };
}

function Changes({ changes }: { changes: FieldChange[] }) {
  return (
    <ul className="admin__changes">
      {changes.map((change) => (
        <li key={change.field}>
          {change.field}: {change.before === "" ? "" : <del>{change.before}</del>}
          {change.before !== "" && change.after !== "" ? " → " : ""}
          {change.after === "" ? "" : <ins>{change.after}</ins>}
        </li>
      ))}
    </ul>
  );
}

export default function AuditLogPage({ loaderData: { entries, next, titles } }: Route.ComponentProps) {
  const rows = entries.map((entry) => {
    const words = entryWords(entry, titles);
    const target = targetWords(entry.target, titles);
    return {
      key: entry.id,
      cells: [
        <When key="at" at={entry.at} />,
        entry.actor,
        <>
          {words.action}: {target.href ? <Link to={target.href}>{target.text}</Link> : target.text}
        </>,
        <Changes key="changes" changes={words.changes} />,
      ],
    };
  });
  return (
    <section aria-labelledby="audit-heading">
      <h1 id="audit-heading">Audit log</h1>
      {entries.length === 0 ? (
        <p className="admin__empty">Nothing has been changed in the back office yet.</p>
      ) : (
        <AdminTable labelledBy="audit-heading" columns={["When", "Who", "What", "Changes"]} rows={rows} />
      )}
      {next && (
        <p className="admin__pager">
          <Link to={`?before=${encodeURIComponent(next)}`}>Older entries</Link>
        </p>
      )}
    </section>
  );
}
