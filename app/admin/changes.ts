/** One field an admin write changed, as the audit page shows it. */
export interface FieldChange {
  field: string;
  before: string;
  after: string;
}

const shown = (value: unknown): string => (value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value));

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The fields that differ between an entry's before and after (every field of a creation or a
 * removal); a value that is not a record counts as one field, "value".
 */
export function fieldChanges(before: unknown, after: unknown): FieldChange[] {
  const from = isRecord(before) ? before : before === null || before === undefined ? {} : { value: before };
  const to = isRecord(after) ? after : after === null || after === undefined ? {} : { value: after };
  const fields = [...new Set([...Object.keys(from), ...Object.keys(to)])];
  return fields
    .filter((field) => shown(from[field]) !== shown(to[field]))
    .map((field) => ({ field, before: shown(from[field]), after: shown(to[field]) }));
}
