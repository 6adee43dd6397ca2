import type { ReactNode } from "react";
import { useRouteLoaderData } from "react-router";
import { shopTime } from "./time.ts";

/** One row of an AdminTable: its cells in the table's column order. */
export interface AdminRow {
  key: string | number;
  cells: ReactNode[];
}

/**
 * A back-office table, named by its section's heading. On a wide screen a table; on a phone each
 * row is a card whose cells carry their column's name (admin.css), so no value is off screen.
 * The roles are spelt out because a table laid out as blocks loses them in some browsers.
 */
export function AdminTable({ labelledBy, columns, rows }: { labelledBy: string; columns: readonly string[]; rows: readonly AdminRow[] }) {
  return (
    <table className="admin-table" role="table" aria-labelledby={labelledBy}>
      <thead role="rowgroup">
        <tr role="row">
          {columns.map((column) => (
            <th key={column} scope="col" role="columnheader">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody role="rowgroup">
        {rows.map((row) => (
          <tr key={row.key} role="row">
            {row.cells.map((cell, i) => (
              <td key={columns[i]} role="cell" data-label={columns[i]}>
                {/* One box, so a phone's card lays the cell beside its column's name as one piece. */}
                <div>{cell}</div>
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The shop's time zone, as the back office's layout loaded it. */
export function useShopTimeZone(): string {
  return (useRouteLoaderData("routes/admin/layout") as { timeZone?: string } | undefined)?.timeZone ?? "UTC";
}

/** A moment in the shop's time zone ("November 24, 2026 at 1:17 PM UTC"), machine-readable too. */
export function When({ at }: { at: number }) {
  return <time dateTime={new Date(at).toISOString()}>{shopTime(at, useShopTimeZone())}</time>;
}
