import { normalizeTerm, wordSpans } from "./text.ts";

/** A run of a title's text, marked when it is a word the query matched. */
export interface TitlePart {
  text: string;
  match: boolean;
}

/**
 * The title cut into plain and matched runs: a word is matched when its index term is one of
 * `terms`. The parts joined give the title back unchanged; the page renders them, so nothing here
 * is HTML.
 */
export function markWords(title: string, terms: ReadonlySet<string>): TitlePart[] {
  return markMatching(title, (term) => terms.has(term));
}

/** The title cut into plain and matched runs: a word is matched when `matches` takes its index term. */
export function markMatching(title: string, matches: (term: string) => boolean): TitlePart[] {
  const parts: TitlePart[] = [];
  const push = (text: string, match: boolean) => {
    if (!text) return;
    const last = parts.at(-1);
    if (last && last.match === match && !match) last.text += text;
    else parts.push({ text, match });
  };
  let at = 0;
  for (const { word, start } of wordSpans(title)) {
    if (!matches(normalizeTerm(word))) continue;
    push(title.slice(at, start), false);
    push(word, true);
    at = start + word.length;
  }
  push(title.slice(at), false);
  return parts;
}
