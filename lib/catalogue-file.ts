// What the command line and the back office say about a catalogue file's import: the counts, or
// the bad rows.

/** What is wrong with one field of one row (`row` is 1-based, the header not counted; null: the file as a whole). */
export interface Problem {
  row: number | null;
  field: string;
  message: string;
}

const count = (n: number) => n.toLocaleString("en-US");

/** `added 99,980, updated 20, unchanged 0`. */
export function countsLine({ added, updated, unchanged }: { added: number; updated: number; unchanged: number }): string {
  return `added ${count(added)}, updated ${count(updated)}, unchanged ${count(unchanged)}`;
}

/** One line a problem: `row 17: price: The price cannot be negative.`; the file's own problems as `file: …`. */
export function problemLine({ row, field, message }: Problem): string {
  return [row === null ? "file" : `row ${row}`, field, message].filter(Boolean).join(": ");
}

/** At most `limit` problems' lines, then how many more there are (`unlisted` were not even kept). */
export function problemLines(problems: Problem[], unlisted = 0, limit = 100): string[] {
  const lines = problems.slice(0, limit).map(problemLine);
  const more = problems.length - lines.length + unlisted;
  return more > 0 ? [...lines, `and ${count(more)} more`] : lines;
}
