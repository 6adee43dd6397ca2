import fs from "node:fs";
import path from "node:path";
import { cruise, type IForbiddenRuleType, type IReporterOutput } from "dependency-cruiser";
import { describe, expect, it } from "vitest";

/*
 * The import graph of the production code (server/, lib/, app/), checked by dependency-cruiser.
 * ESLint holds the boundaries between the halves (app → server only types, server → app never,
 * lib → neither); this holds the graph inside them: no import circle, and no import that runs back
 * up the server's floors.
 *
 *   lib/                 pure rules
 *   foundation           log.ts, config.ts, http-error.ts, private-files.ts, command-line.ts, the observability port
 *   server/db/           the database
 *   server/<part>/       catalogue, stock, payments, orders, mail, auth, admin, page-cache, http ...
 *   server/*.ts          the composition: services, the pipeline, pages, start-up
 *
 * A floor imports from floors below it and its own. Importing a type only (`import type`) may reach
 * higher, as a part naming the `Services` it is given does; a circle may not be closed even so.
 */
const FOUNDATION = "^server/(log|config|http-error|private-files|command-line)\\.ts$|^server/observability/(port|otel-config)\\.ts$";
const DB = "^server/db/";
const PARTS = "^server/[^/]+/";
const COMPOSITION = "^server/[^/]+\\.ts$";

const upward = (name: string, from: string, fromNot: string | undefined, to: string, toNot?: string): IForbiddenRuleType => ({
  name,
  severity: "error",
  from: { path: from, ...(fromNot ? { pathNot: fromNot } : {}) },
  to: { path: to, ...(toNot ? { pathNot: toNot } : {}), dependencyTypesNot: ["type-only"] },
});

const RULES: IForbiddenRuleType[] = [
  { name: "no-circular", severity: "error", from: {}, to: { circular: true } },
  upward("lib-imports-nothing-of-the-shop", "^lib/", undefined, "^(server|app)/"),
  upward("foundation-above-itself", FOUNDATION, undefined, "^server/", FOUNDATION),
  upward("db-above-itself", DB, undefined, `${PARTS}|${COMPOSITION}`, `${DB}|${FOUNDATION}`),
  upward("part-imports-composition", PARTS, DB, COMPOSITION, FOUNDATION),
];

/** Every rule broken under `baseDir`, as "rule: from → to" (a circle: its whole way round). */
async function violations(baseDir: string, tsConfig?: string): Promise<string[]> {
  const result = await cruise(["server", "lib", "app"].filter((dir) => fs.existsSync(path.join(baseDir, dir))), {
    baseDir,
    validate: true,
    ruleSet: { forbidden: RULES },
    ...(tsConfig ? { tsConfig: { fileName: tsConfig } } : {}),
    tsPreCompilationDeps: true,
    // Tests and React Router's generated route types (each imports its route module back) are not production code.
    exclude: { path: "\\.test\\.tsx?$|(^|/)\\.react-router/|node_modules" },
    doNotFollow: { path: "node_modules" },
  });
  const { output } = result as IReporterOutput & { output: Exclude<IReporterOutput["output"], string> };
  return output.summary.violations.map((v) => `${v.rule.name}: ${[v.from, ...(v.cycle?.map((step) => step.name) ?? [v.to])].join(" → ")}`).sort();
}

describe("the import graph", () => {
  it("has no circle and no import back up a floor", async () => {
    expect(await violations(".", "tsconfig.json")).toEqual([]);
  }, 60_000);

  it("would show a circle and each import that runs up a floor", async () => {
    expect(await violations("test/fixtures/import-graph")).toEqual([
      "db-above-itself: server/db/store.ts → server/services.ts",
      "lib-imports-nothing-of-the-shop: lib/rule.ts → server/services.ts",
      "no-circular: server/db/store.ts → server/services.ts → server/db/store.ts",
    ]);
  });
});
