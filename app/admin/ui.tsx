import type { ReactNode } from "react";
import { orderDate } from "../dates.ts";

/**
 * A back-office table: a scroll region of its own (keyboard-focusable, named by its heading) so a
 * phone scrolls the table rather than the page; `children` are its body rows.
 */
export function AdminTable({ labelledBy, columns, children }: { labelledBy: string; columns: readonly string[]; children: ReactNode }) {
  return (
    <div className="admin-table" role="region" aria-labelledby={labelledBy} tabIndex={0}>
      <table>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A moment as the shop writes it ("November 24, 2026 at 1:17 PM UTC"), machine-readable too. */
export function When({ at }: { at: number }) {
  return <time dateTime={new Date(at).toISOString()}>{orderDate(at)}</time>;
}
