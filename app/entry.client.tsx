import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { routesSet } from "./routes-set.ts";

// This module is evaluated with the first route module the document's closing script imports,
// before that script has set the route modules and the manifest that HydratedRouter reads
// (routes-set.ts): hydration waits for it. As a transition, so that React can yield to a tap
// while it hydrates the page.
void routesSet().then(() => {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
});
