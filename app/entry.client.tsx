import { Fragment, options } from "preact";
import { StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { inNextTask } from "./next-task.ts";
import { routesSet } from "./routes-set.ts";

/*
 * The browser build runs on Preact's compatibility layer in place of React (vite.config.ts): it is
 * about 50 KB (brotli) smaller, which is what lets a first load stay under its JavaScript budget.
 * The server still renders with React; Preact hydrates React's markup, and what follows is the
 * difference between the two that hydration has to bridge.
 */

const createdVNode = options.vnode;
options.vnode = (vnode) => {
  // Preact renders into `document` as into <html> (document.documentElement), so the root layout's
  // own <html> element stands for the one that is already there instead of a second one inside it.
  // Its attributes are the server's and do not change.
  if (vnode.type === "html") vnode.type = Fragment;
  // <Scripts> renders a modulepreload link for each module of the page. React hoists them into the
  // head, where the server takes them out again (document-bytes.server.ts); Preact would add them
  // to the body after hydrating, for modules that are loaded by then. They are left out here too.
  else if (vnode.type === "link" && (vnode.props as { rel?: unknown }).rel === "modulepreload") {
    vnode.type = Fragment;
    vnode.props = { children: null };
  }
  createdVNode?.(vnode);
};

// Effects (useEffect) run in the next task after a render is committed, as React runs them; Preact
// waits for the next animation frame by default, which a hidden tab never shows.
options.requestAnimationFrame = inNextTask;

/**
 * The head elements the server alone renders: the inline stylesheet and the early-tap script
 * (root.tsx), React's hoisted preloads. Preact hydrates an element's children by matching each
 * element it renders to the first one of the same tag and removes the rest, so these are taken out
 * while it hydrates and put back at once, in the same task (nothing is painted without them).
 */
function setServerOnlyHeadAside(): () => void {
  const aside = [...document.head.querySelectorAll(":scope > style, :scope > script, :scope > link[rel=preload], :scope > link[rel=modulepreload]")];
  const places = aside.map((node) => [node, node.nextSibling] as const);
  for (const node of aside) node.remove();
  return () => {
    for (const [node, next] of places.reverse()) document.head.insertBefore(node, next?.parentNode === document.head ? next : null);
  };
}

/**
 * HydratedRouter's first render suspends (throws a promise) until the loader data streamed into
 * the document is decoded. React's root waits for that by itself; Preact, with no Suspense boundary
 * above it, throws the promise back out before it has touched the page (a boundary would render
 * the page anew instead of hydrating it), so hydration starts again once it has settled, in a task
 * of its own: the decoding and the router's creation with the page's hydration would be one task
 * long enough to hold back a tap on a slow phone.
 */
function hydrate() {
  const putBack = setServerOnlyHeadAside();
  try {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  } catch (thrown) {
    if (!(thrown instanceof Promise)) throw thrown;
    void thrown.then(() => inNextTask(hydrate));
  } finally {
    putBack();
  }
}

// This module is evaluated with the first route module the document's closing script imports, before
// that script sets the route modules and the manifest that HydratedRouter reads (routes-set.ts);
// React's hydrateRoot renders in a later task by itself, Preact's at once: so hydration waits for
// the script and then for the next task.
void routesSet().then(() => inNextTask(hydrate));
