import { defineConfig } from "vitest/config";

// Three projects:
// - unit: pure code and in-process API tests; runs on a fresh clone with no build (npm run test:unit).
// - integration (*.integration.test.ts): pages rendered from the production build, and started
//   processes; npm test runs it after the build.
// - db (*.db.test.ts): database and API tests on SQLite, and on PostgreSQL too where one answers
//   (see test/support/database.ts); some start processes or render pages, so it also runs after the
//   build. It is what `npm run test:pg` runs with PostgreSQL required.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "lib/**/*.test.ts", "test/**/*.test.ts", "vite/**/*.test.ts"],
          exclude: ["**/*.db.test.ts", "**/*.integration.test.ts"],
          environment: "node",
        },
      },
      {
        test: {
          name: "integration",
          include: ["server/**/*.integration.test.ts", "test/**/*.integration.test.ts"],
          environment: "node",
          testTimeout: 20_000,
          hookTimeout: 20_000,
        },
      },
      {
        test: {
          name: "db",
          include: ["server/**/*.db.test.ts", "test/**/*.db.test.ts"],
          environment: "node",
          globalSetup: ["test/support/database-setup.ts"],
          testTimeout: 20_000,
          hookTimeout: 20_000,
        },
      },
    ],
  },
});
