import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The app/server boundary, and production code never importing test code, are enforced by the project's ESLint config; these prove the rule bites.
const eslint = new ESLint();

async function boundaryErrors(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === "@typescript-eslint/no-restricted-imports").map((m) => m.message);
}

describe("the app/server boundary", () => {
  it("refuses a value import from server/ in app/", async () => {
    const errors = await boundaryErrors(
      'import { parseProductId } from "../../server/catalogue/product.ts";\nexport const parse = parseProductId;\n',
      "app/routes/example.tsx",
    );
    expect(errors).toEqual([expect.stringContaining("app/ may import only types from server/")]);
  });

  it("allows a type import from server/ in app/", async () => {
    const code = 'import type { Product } from "../../server/catalogue/product.ts";\nexport const none: Product | null = null;\n';
    expect(await boundaryErrors(code, "app/routes/example.tsx")).toEqual([]);
  });

  it("refuses any import from app/ in server/", async () => {
    const code = 'import { formatCents } from "../app/dates.ts";\nexport const format = formatCents;\n';
    expect(await boundaryErrors(code, "server/example.ts")).toEqual([expect.stringContaining("server/ never imports from app/")]);
  });

});

describe("production code and test code", () => {
  const code = (from: string) => `import { startServer } from "${from}";\nexport const start = startServer;\n`;

  it.each([
    ["server/orders/example.ts", "../../test/support/server-process.ts"],
    ["app/routes/example.tsx", "../../test/support/server-process.ts"],
    ["lib/example.ts", "../test/support/server-process.ts"],
    ["server/example.ts", "./payments/payments.db.test.ts"],
  ])("refuses test code in %s (%s)", async (filePath, from) => {
    expect(await boundaryErrors(code(from), filePath)).toEqual([expect.stringContaining("Production code never imports test code")]);
  });

  it("lets a test take shared test code", async () => {
    expect(await boundaryErrors(code("../../test/support/server-process.ts"), "server/orders/example.db.test.ts")).toEqual([]);
  });
});

describe("sizes", () => {
  const sizeErrors = async (code: string, filePath: string) => {
    const [result] = await eslint.lintText(code, { filePath });
    return (result?.messages ?? []).filter((m) => m.ruleId === "max-lines" || m.ruleId === "max-lines-per-function").map((m) => m.ruleId);
  };
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join("\n");
  const longFunction = `export function long(): number {\n${lines(80)}\n  return 0;\n}\n`;
  const longFile = `${Array.from({ length: 301 }, (_, i) => `export const c${i} = ${i};`).join("\n")}\n`;

  it("refuses a production function over 80 lines and a production file over 300", async () => {
    expect(await sizeErrors(longFunction, "server/orders/example.ts")).toEqual(["max-lines-per-function"]);
    expect(await sizeErrors(longFunction, "app/routes/example.tsx")).toEqual(["max-lines-per-function"]);
    expect(await sizeErrors(longFile, "lib/example.ts")).toEqual(["max-lines"]);
  });

  it("leaves tests to be as long as they need", async () => {
    expect(await sizeErrors(longFunction + longFile, "server/orders/example.db.test.ts")).toEqual([]);
  });
});
