// One set of text rules for indexing, querying and highlighting, so a word the index matched is
// always a word the highlighter can find in the title.

/** Longer queries are cut: nobody types more, and it bounds the work one request can ask for. */
export const MAX_QUERY_LENGTH = 200;

/**
 * The query as the shop searches for it and shows it back: control characters and runs of white
 * space become one space, ends are trimmed, and at most MAX_QUERY_LENGTH characters are kept
 * (counted in code points, so an emoji is never cut in half).
 */
export function cleanQuery(raw: string): string {
  const tidy = raw.replace(/[\s\p{Cc}]+/gu, " ").trim();
  return Array.from(tidy).slice(0, MAX_QUERY_LENGTH).join("").trimEnd();
}

// Letters and digits, with combining marks kept inside the word so a decomposed "é" does not split it.
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** The words of a text: "T-Shirt" is "T" and "Shirt", "15.6-Inch" is "15", "6" and "Inch". */
export function words(text: string): string[] {
  return text.match(WORD) ?? [];
}

/** Each word of `text` with where it starts, for marking words inside the original string. */
export function wordSpans(text: string): Array<{ word: string; start: number }> {
  return Array.from(text.matchAll(WORD), (match) => ({ word: match[0], start: match.index }));
}

/**
 * The index term of a word: case and accents do not count ("Émerald" is "emerald"), and
 * compatibility forms fold to plain letters (full-width "ｌａｐｔｏｐ" is "laptop").
 */
export function normalizeTerm(word: string): string {
  return word.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}
