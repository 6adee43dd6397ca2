import type { ReactElement } from "react";

/**
 * A component that always renders the same markup (an icon, a static strip): on the server its
 * element is made once per process and given to every render (React only reads elements, so a kept
 * one renders exactly as a new one; a page's icons and header strip were about 3% of an uncached
 * page's CPU, most of it making their elements again), in the browser it is made on each render as
 * usual (a page renders there a few times, not thousands).
 */
export function fixed(make: () => ReactElement): () => ReactElement {
  if (!import.meta.env.SSR) return make;
  const element = make();
  return () => element;
}
