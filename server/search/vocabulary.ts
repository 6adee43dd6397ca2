/**
 * The distinct terms of the search index (words, not products: bounded by the catalogue's
 * vocabulary), kept in memory to turn a misspelt word into the terms one edit away, which the
 * database's full-text index then finds like any other word. Terms are grouped by length, since a
 * neighbour is at most one character longer or shorter.
 */
export class Vocabulary {
  private readonly terms = new Set<string>();
  private readonly byLength = new Map<number, string[]>();
  /** Every character of every term: the letters a typo may have replaced, dropped or added. */
  private readonly alphabet = new Set<string>();

  constructor(terms: Iterable<string> = []) {
    for (const term of terms) this.add(term);
  }

  get size(): number {
    return this.terms.size;
  }

  add(term: string): void {
    if (!term || this.terms.has(term)) return;
    this.terms.add(term);
    const sameLength = this.byLength.get(term.length);
    if (sameLength) sameLength.push(term);
    else this.byLength.set(term.length, [term]);
    for (const character of term) this.alphabet.add(character);
  }

  /**
   * The terms one insertion, deletion or substitution away from `word`, at most `max` of them. A
   * swap of two letters is two edits, as in the in-memory index. Terms that begin with `word` are
   * left out: the word as a prefix finds them already.
   */
  neighbours(word: string, max: number): string[] {
    const found = new Set<string>();
    const take = (term: string) => {
      if (found.size < max && term !== word && !term.startsWith(word) && this.terms.has(term)) found.add(term);
    };
    const candidates = (word.length * 2 + 1) * this.alphabet.size;
    const nearby = [word.length - 1, word.length, word.length + 1].reduce((n, length) => n + (this.byLength.get(length)?.length ?? 0), 0);
    if (candidates <= nearby) {
      // A small alphabet (most languages): every edit of the word, looked up.
      for (let i = 0; i <= word.length; i++) {
        const [before, after] = [word.slice(0, i), word.slice(i)];
        if (after) take(before + after.slice(1));
        for (const character of this.alphabet) {
          take(before + character + after);
          if (after) take(before + character + after.slice(1));
        }
      }
    } else {
      // A large one (Chinese, Japanese): the terms of a neighbour's length, compared.
      for (const length of [word.length - 1, word.length, word.length + 1]) {
        for (const term of this.byLength.get(length) ?? []) if (oneEditApart(word, term)) take(term);
      }
    }
    return [...found];
  }
}

/** Whether `a` becomes `b` by at most one insertion, deletion or substitution of a character. */
export function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  if (i === short.length) return true;
  // The first difference: skip it in the longer one (an insertion) or in both (a substitution).
  const rest = short.length === long.length ? i + 1 : i;
  return short.slice(rest) === long.slice(i + 1);
}
