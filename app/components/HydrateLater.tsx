import { type ReactElement, Suspense } from "react";
import { inNextTask } from "../in-next-task.ts";

/*
 * Hydrating a whole page of product cards is one long task on a slow phone (Lighthouse's mobile
 * run: about 190 ms at its 4x CPU slowdown on the home page), and a task that long holds back any
 * tap. Parts of a page wrapped in <HydrateLater> are hydrated after the rest, one group per turn:
 * during the page's first hydration each part suspends (throws a promise) inside a Suspense
 * boundary of its own, which React leaves as the server drew it (a dehydrated boundary) and
 * hydrates in place once its group's turn has come; a tap inside one that is still waiting makes
 * React hydrate it first. Nothing is drawn differently meanwhile: the markup is the server's.
 *
 * On the server, and in every render after the page's first hydration (client navigations),
 * nothing waits.
 */

/**
 * The turns of every page's header and <main> (root.tsx): the router and the document's frame
 * hydrate first, then the header, then the page's content; parts of a page come after it.
 */
export const HEADER_GROUP = 0;
export const MAIN_GROUP = 1;

/** How many product cards of a grid hydrate in one turn: each turn well under 50 ms on a slow phone. */
const CARDS_PER_TURN = 4;

/** The turn of the card at `index` of a page's product grid: after the page's content, a few cards at a time. */
export const cardTurn = (index: number): number => MAIN_GROUP + 1 + Math.floor(index / CARDS_PER_TURN);

interface Gate {
  open: boolean;
  promise: Promise<void>;
  release(): void;
}

const gates: Gate[] = [];
/** True once every part of the first hydration has had its turn: nothing waits any more. */
let settled = typeof document === "undefined";
let markSettled: () => void = () => {};
const whenSettled = new Promise<void>((resolve) => (markSettled = resolve));

/**
 * Opens the next group's gate; the parts waiting on it hydrate in this task's microtasks (the
 * Suspense boundaries' renders), and the group after it gets the next task. One task after the
 * last group, the page counts as hydrated.
 */
function openNext(): void {
  const next = gates.find((gate) => !gate.open);
  if (!next) {
    settled = true;
    markSettled();
    return;
  }
  next.open = true;
  next.release();
  inNextTask(openNext);
}

function gateFor(group: number): Gate {
  if (gates.length === 0) inNextTask(openNext);
  while (gates.length <= group) {
    let release = () => {};
    const promise = new Promise<void>((resolve) => (release = resolve));
    gates.push({ open: false, promise, release });
  }
  return gates[group]!;
}

/**
 * Resolves once every part the first hydration put off has been hydrated (at once if there were
 * none): what the app waits for before it marks the document as hydrated.
 */
export function allPartsHydrated(): Promise<void> {
  // No part asked to wait (the first hydration has none to put off), or all have had their turn.
  if (settled || gates.length === 0) {
    settled = true;
    markSettled();
  }
  return whenSettled;
}

function Waiting({ group, children }: { group: number; children: ReactElement }): ReactElement {
  if (!settled) {
    const gate = gateFor(group);
    if (!gate.open) throw gate.promise;
  }
  return children;
}

/**
 * `children` (one element) is hydrated in turn `group` (0 first) after the rest of the page, each
 * turn a task of its own. Parts of one group hydrate together.
 */
export function HydrateLater({ group, children }: { group: number; children: ReactElement }): ReactElement {
  return (
    <Suspense fallback={null}>
      <Waiting group={group}>{children}</Waiting>
    </Suspense>
  );
}
