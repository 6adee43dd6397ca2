// `npm run catalogue -- import FILE` / `npm run catalogue -- export FILE`: loads a catalogue file
// into the database the shop is configured with (DATABASE_URL, else SQLite under DATA_DIR), or
// writes the products on sale to one; JSON or CSV by the file's extension. The database is made
// ready as the shop's first start makes it (migrated, the first catalogue seeded once), so an
// import lands on top of that catalogue, never under it.
import fs from "node:fs";
import { pipeline } from "node:stream/promises";
import type { Actor } from "../../audit/log.ts";
import { runCommand } from "../../command-line.ts";
import { loadConfig } from "../../config.ts";
import { type AppDatabase, databaseTarget, openDatabase } from "../../db/database.ts";
import { migrateToLatest } from "../../db/migrations.ts";
import { createLogger, type Logger } from "../../log.ts";
import { type CatalogueEvents, InProcessCatalogueEvents, PostgresCatalogueEvents } from "../events.ts";
import { seedCatalogue } from "../seed.ts";
import { exportProducts } from "./export.ts";
import { countsLine, problemLines } from "../../../lib/catalogue-file.ts";
import { importProducts, type ImportProgress } from "./import.ts";
import { type Format, formatOf } from "./parse.ts";

const USAGE = "Usage: npm run catalogue -- import <file.json|file.csv> | export <file.json|file.csv>";

/** Who the audit log says loaded a file from the command line. */
export const CATALOGUE_COMMAND: Actor = { id: null, name: "npm run catalogue" };

const count = (n: number) => n.toLocaleString("en-US");

/** Progress on one line of the terminal, rewritten in place; nothing when stderr is not a terminal (a script, a log file). */
function progressLine(): { show(text: string): void; done(): void } {
  if (!process.stderr.isTTY) return { show() {}, done() {} };
  let shown = false;
  return {
    show(text) {
      process.stderr.write(`\r\x1b[K${text}`);
      shown = true;
    },
    done() {
      if (shown) process.stderr.write("\r\x1b[K");
      shown = false;
    },
  };
}

async function runImport(database: AppDatabase, log: Logger, file: string, format: Format): Promise<number> {
  // On PostgreSQL the event reaches every running instance; on SQLite the shop's process does not
  // hear another process, and reads the catalogue again when it restarts.
  const events: CatalogueEvents = database.driver.engine === "postgres" ? new PostgresCatalogueEvents(database.driver.notifications, log) : new InProcessCatalogueEvents(database.afterCommit);
  const progress = progressLine();
  const show = (p: ImportProgress) => progress.show(p.stage === "checked" ? `checked ${count(p.rows)} rows` : `written ${count(p.rows)} of ${count(p.of)} rows`);
  try {
    const outcome = await importProducts({ db: database.db, engine: database.engine, events }, fs.createReadStream(file), format, CATALOGUE_COMMAND, show);
    progress.done();
    if (!outcome.ok) {
      console.error(`Nothing was written: ${file} has problems.`);
      for (const line of problemLines(outcome.problems, outcome.unlisted)) console.error(line);
      return 1;
    }
    console.log(countsLine(outcome));
    return 0;
  } finally {
    progress.done();
    await events.close();
  }
}

async function runExport(database: AppDatabase, file: string, format: Format): Promise<number> {
  const progress = progressLine();
  let exported = 0;
  // Written beside the file, then put in its place: a failed export leaves no half a catalogue under its name.
  const partial = `${file}.partial-${process.pid}`;
  try {
    const onProduct = (n: number) => {
      exported = n;
      if (n % 1_000 === 0) progress.show(`exported ${count(n)} products`);
    };
    await pipeline(exportProducts(database.db, format, onProduct), fs.createWriteStream(partial, { flags: "wx" }));
    fs.renameSync(partial, file);
  } finally {
    progress.done();
    fs.rmSync(partial, { force: true });
  }
  console.log(`exported ${count(exported)} products to ${file}`);
  return 0;
}

async function main(args: string[]): Promise<number> {
  const [command, file, ...rest] = args;
  if ((command !== "import" && command !== "export") || !file || rest.length > 0) {
    console.error(USAGE);
    return 2;
  }
  const format = formatOf(file);
  if (!format) {
    console.error(`${file}: the format goes by the file's extension, .json or .csv.`);
    return 2;
  }
  if (command === "import" && !fs.statSync(file, { throwIfNoEntry: false })?.isFile()) {
    console.error(`${file}: there is no such file.`);
    return 1;
  }
  const config = loadConfig();
  if (config.CATALOGUE_URL) {
    console.error("The shop reads its products from CATALOGUE_URL: its database holds no catalogue to load or write.");
    return 1;
  }
  const log = createLogger({ ...config, LOG_LEVEL: "warn" });
  const database = openDatabase(databaseTarget(config), { log });
  try {
    await migrateToLatest(database);
    await seedCatalogue(database);
    return command === "import" ? await runImport(database, log, file, format) : await runExport(database, file, format);
  } finally {
    await database.close();
  }
}

runCommand(main);
