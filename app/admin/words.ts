import { formatCents } from "../../lib/basket.ts";
import { type FieldChange, fieldChanges } from "./changes.ts";
import { isOrderStatus, STATUS_LABELS } from "./labels.ts";

/** An id short enough for a phone's line: "pi_1522…4751"; the whole id stays where it is copied. */
export function shortId(id: string): string {
  const prefix = /^[a-z]{1,4}_/.exec(id)?.[0] ?? "";
  const rest = id.slice(prefix.length);
  return rest.length <= 10 ? id : `${prefix}${rest.slice(0, 4)}…${rest.slice(-4)}`;
}

/** A mail's status as people say it. */
export const MAIL_STATUS_WORDS: Record<"pending" | "sent" | "failed", string> = { pending: "Waiting", sent: "Sent", failed: "Failed" };

const ACTIONS: Record<string, string> = {
  "order.refund": "Refund",
  "product.create": "Product added",
  "product.update": "Product edited",
  "product.archive": "Product archived",
  "product.unarchive": "Product back on sale",
  "product.image": "Picture changed",
  "staff.grant": "Made an admin",
  "staff.revoke": "Admin rights taken away",
};

const FIELDS: Record<string, string> = {
  status: "Status",
  refunded: "Refunded in all",
  refund: "Refund",
  lines: "Units",
  reason: "Reason",
  restock: "Back in stock",
  title: "Title",
  priceCents: "Price",
  description: "Description",
  category: "Category",
  stock: "Stock",
  image: "Picture",
  archived: "Archived",
  role: "Role",
};

/** The product ids an audit entry names: its target ("product:16") and a refund's lines ("1 × 16, 2 × 9"). */
export function productIdsOf(entry: { target: string; after: unknown }): number[] {
  const ids: number[] = [];
  const target = /^product:(\d+)$/.exec(entry.target);
  if (target) ids.push(Number(target[1]));
  const lines = (entry.after as { lines?: unknown } | null)?.lines;
  if (typeof lines === "string") for (const match of lines.matchAll(/\d+ × (\d+)/g)) ids.push(Number(match[1]));
  return ids;
}

type Titles = Readonly<Record<number, string>>;

const productName = (id: string, titles: Titles) => titles[Number(id)] ?? `Product ${id}`;

function valueWords(field: string, value: string, titles: Titles): string {
  if (value === "") return "";
  if (value === "true" || value === "false") return value === "true" ? "Yes" : "No";
  if (field === "status" && isOrderStatus(value)) return STATUS_LABELS[value];
  if (field === "priceCents" && /^\d+$/.test(value)) return formatCents(Number(value));
  if (field === "role") return value === "admin" ? "Admin" : value === "customer" ? "Customer" : value;
  if (field === "lines") return value.replace(/(\d+) × (\d+)/g, (_all, units: string, id: string) => `${units} × ${productName(id, titles)}`);
  return value;
}

/** What an audit entry touched, in words, with the back office's page for it where there is one. */
export function targetWords(target: string, titles: Titles): { text: string; href?: string } {
  const [kind, ...rest] = target.split(":");
  const id = rest.join(":");
  if (kind === "product" && /^\d+$/.test(id)) return { text: productName(id, titles), href: `/admin/products/${id}` };
  if (kind === "order" && id) return { text: `Order ${shortId(id)}`, href: `/admin/orders/${encodeURIComponent(id)}` };
  if (kind === "user" && id) return { text: id };
  return { text: target };
}

/** An audit entry as people read it: the action, and each changed field with its label and values in words. */
export function entryWords(entry: { action: string; before: unknown; after: unknown }, titles: Titles): { action: string; changes: FieldChange[] } {
  return {
    action: ACTIONS[entry.action] ?? entry.action,
    changes: fieldChanges(entry.before, entry.after).map((change) => ({
      field: FIELDS[change.field] ?? change.field,
      before: valueWords(change.field, change.before, titles),
      after: valueWords(change.field, change.after, titles),
    })),
  };
}
