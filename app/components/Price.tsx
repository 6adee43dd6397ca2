import { formatCents } from "../../lib/basket.ts";

export function Price({ cents, className }: { cents: number; className?: string }) {
  return <span className={className ?? "price"}>{formatCents(cents)}</span>;
}
