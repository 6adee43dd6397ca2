import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/", ".react-router/", "node_modules/", "test-results/", "playwright-report/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
    },
  },
  {
    // Plain JavaScript run by node before anything is built (npm start).
    files: ["scripts/**/*.js"],
    languageOptions: { globals: globals.node },
  },
  // The app/server boundary (docs/ARCHITECTURE.md): the app is bundled by Vite and the server is not, so a
  // value shared across it would exist twice. The app takes only types from the server (run-time
  // access goes through the load context); the server takes nothing from the app. Production code
  // never takes test code (test/, or another file's tests).
  {
    files: ["app/**/*.{ts,tsx}"],
    rules: restrictedImports(
      { regex: "^(\\.\\.?/)+server(/|$)", allowTypeImports: true, message: "app/ may import only types from server/; reach the back end through the load context." },
    ),
  },
  {
    // lib/ is pure code both sides share: it takes nothing from either.
    files: ["lib/**/*.ts"],
    rules: restrictedImports({ regex: "^(\\.\\.?/)+(app|server)(/|$)", message: "lib/ is shared by app/ and server/ and imports neither." }),
  },
  {
    files: ["server/**/*.ts"],
    rules: {
      // JSON answers go through jsonResponse (server/api-edge/json-response.ts), which states their length
      // so that compression skips small ones.
      "no-restricted-properties": [
        "error",
        { object: "c", property: "json", message: "Use jsonResponse(c, ...) from server/api-edge/json-response.ts." },
        { object: "Response", property: "json", message: "Use jsonResponse(c, ...) from server/api-edge/json-response.ts." },
      ],
      ...restrictedImports({ regex: "^(\\.\\.?/)+app(/|$)", message: "server/ never imports from app/." }),
    },
  },
  // Tests may take test code; the boundary rules above still hold for them.
  {
    files: ["app/**/*.test.{ts,tsx}"],
    rules: restrictedImports(
      { regex: "^(\\.\\.?/)+server(/|$)", allowTypeImports: true, message: "app/ may import only types from server/; reach the back end through the load context." },
      false,
    ),
  },
  // Production code a newcomer reads: files of at most 300 lines, functions and components of at
  // most 80 (a longer one is split into parts named for what they do).
  {
    files: ["server/**/*.ts", "app/**/*.{ts,tsx}", "lib/**/*.ts"],
    ignores: ["**/*.test.{ts,tsx}", "**/*.d.ts", "server/db/migrations/**"],
    rules: {
      "max-lines": ["error", { max: 300 }],
      "max-lines-per-function": ["error", { max: 80 }],
    },
  },
  {
    files: ["lib/**/*.test.ts"],
    rules: restrictedImports({ regex: "^(\\.\\.?/)+(app|server)(/|$)", message: "lib/ is shared by app/ and server/ and imports neither." }, false),
  },
  {
    files: ["server/**/*.test.ts"],
    rules: restrictedImports({ regex: "^(\\.\\.?/)+app(/|$)", message: "server/ never imports from app/." }, false),
  },
);

/**
 * The import rule for one part of the tree: its own boundary, and (for production code) no test
 * code: nothing under test/ and no *.test file.
 */
function restrictedImports(boundary, production = true) {
  const testCode = [
    { regex: "^(\\.\\.?/)+test(/|$)", message: "Production code never imports test code (test/)." },
    { regex: "\\.test(\\.tsx?)?$", message: "Production code never imports test code (*.test files)." },
  ];
  return { "@typescript-eslint/no-restricted-imports": ["error", { patterns: [boundary, ...(production ? testCode : [])] }] };
}
