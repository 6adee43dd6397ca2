import { defineConfig } from "vitest/config";

// Database and API tests run on SQLite, and on PostgreSQL too where one answers
// (see server/db/testing.ts); the "db" project is what `npm run test:pg` runs.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts"],
          exclude: ["server/**/*.db.test.ts"],
          environment: "node",
        },
      },
      {
        test: {
          name: "db",
          include: ["server/**/*.db.test.ts"],
          environment: "node",
          globalSetup: ["server/db/testing-setup.ts"],
          testTimeout: 20_000,
          hookTimeout: 20_000,
        },
      },
    ],
  },
});
