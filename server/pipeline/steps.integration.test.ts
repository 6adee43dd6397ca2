import path from "node:path";
import type { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { testApp } from "../../test/support/app.ts";
import { builtPageRoutes } from "../../test/support/page-routes.ts";
import { builtPages } from "../../test/support/pages.ts";
import type { Pipeline } from "../app.ts";
import type { AppEnv } from "../http/env.ts";

// The pipeline is one declared list of steps (server/app.ts pipelineSteps): the Hono chain is built
// from it, and so is the path in front of Hono (ready-answers.ts). A handler put into the Hono app
// any other way has no counterpart in front, and would be missed there (a session check, a guard,
// a header): this finds it.

/** Every handler of the Hono app that no declared step put there, as "METHOD path". */
function outsideTheSteps(app: Hono<AppEnv>, steps: Pipeline["steps"]): string[] {
  const declared = new Set(steps.flatMap(({ handlers }) => handlers));
  return app.routes.filter((route) => !declared.has(route.handler)).map((route) => `${route.method} ${route.path}`);
}

/** What each step does in front of Hono, by name. */
const inFrontKinds = (steps: Pipeline["steps"]) => Object.fromEntries(steps.map(({ step }) => [step.name, Object.keys(step.inFront)[0]]));

describe("the pipeline's steps", () => {
  it("put every handler of the Hono app there, and each says what it does in front of Hono", async () => {
    const { app, steps } = await testApp({ ssr: await builtPages(), pageRoutes: await builtPageRoutes(), clientDir: path.resolve("build/client") });
    expect(outsideTheSteps(app, steps)).toEqual([]);
    expect(steps.every(({ handlers }) => handlers.length > 0)).toBe(true);
    expect(inFrontKinds(steps)).toEqual({
      "observe requests": "wraps",
      "retry after 429": "idle",
      "security headers": "wraps",
      "catalogue API": "finds",
      compression: "idle",
      "client address": "idle",
      "same-origin writes": "admits",
      "body limit": "admits",
      session: "admits",
      API: "idle",
      images: "idle",
      files: "idle",
      sitemaps: "idle",
      pages: "finds",
    });
    // robots.txt and the sitemaps are answered before the pages would call them "Page not found".
    expect(steps.map(({ step }) => step.name).slice(-2)).toEqual(["sitemaps", "pages"]);
    for (const { step } of steps) if ("idle" in step.inFront) expect(step.inFront.idle.length, step.name).toBeGreaterThan(10);
  });

  it("would find a step added to the Hono app outside the list", async () => {
    const { app, steps } = await testApp();
    app.use("*", async (_c, next) => next());
    app.get("/api/extra", (c) => c.text("extra"));
    expect(outsideTheSteps(app, steps)).toEqual(["ALL /*", "GET /api/extra"]);
  });
});
