import { Link } from "react-router";
import type { Route } from "./+types/audit";
import { fieldChanges } from "../../admin/changes.ts";
import { requireAdmin } from "../../admin/guard.ts";
import { AdminTable, When } from "../../admin/ui.tsx";
import { pageMeta } from "../../meta.ts";

export const handle = { shell: false };

export const meta: Route.MetaFunction = () => pageMeta("Audit log", "Every change made in the back office.");

const PAGE = 25;

export async function loader({ context, request }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  const before = new URL(request.url).searchParams.get("before") ?? undefined;
  const page = await admin.audit.page({ limit: PAGE, before });
  // A cursor that is not one of ours: the first page, rather than an error.
  return page.ok ? page : await admin.audit.page({ limit: PAGE });
}

export default function AuditLogPage({ loaderData }: Route.ComponentProps) {
  const { entries, next } = loaderData.ok ? loaderData : { entries: [], next: null };
  return (
    <section aria-labelledby="audit-heading">
      <h1 id="audit-heading">Audit log</h1>
      {entries.length === 0 ? (
        <p className="admin__empty">Nothing has been changed in the back office yet.</p>
      ) : (
        <AdminTable labelledBy="audit-heading" columns={["When", "Who", "What", "Changes"]}>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td>
                <When at={entry.at} />
              </td>
              <td>{entry.actor}</td>
              <td>
                <code>{entry.action}</code> <span className="admin__target">{entry.target}</span>
              </td>
              <td>
                <ul className="admin__changes">
                  {fieldChanges(entry.before, entry.after).map((change) => (
                    <li key={change.field}>
                      {change.field}: {change.before === "" ? "" : <del>{change.before}</del>}
                      {change.before !== "" && change.after !== "" ? " → " : ""}
                      {change.after === "" ? "" : <ins>{change.after}</ins>}
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
      {next && (
        <p className="admin__pager">
          <Link to={`?before=${encodeURIComponent(next)}`}>Older entries</Link>
        </p>
      )}
    </section>
  );
}
