// `npm run admin -- grant <email>` / `npm run admin -- revoke <email>`: makes an account an admin or
// a customer again, on the database the shop is configured with (DATABASE_URL, else SQLite under
// DATA_DIR), with a `staff.grant` or `staff.revoke` audit log entry. The account must exist (sign
// up first). A confirmed address in ADMIN_EMAILS is made an admin again when the server starts or
// it signs in: take it out of the list too.
import { AuthService } from "../auth/auth.ts";
import { runCommand } from "../command-line.ts";
import { loadConfig } from "../config.ts";
import { databaseTarget, openDatabase } from "../db/database.ts";
import { migrateToLatest } from "../db/migrations.ts";
import { createLogger } from "../log.ts";
import { COMMAND_LINE } from "../audit/log.ts";
import { setRole } from "../auth/staff.ts";

const USAGE = "Usage: npm run admin -- grant <email> | revoke <email>";

async function main(args: string[]): Promise<number> {
  const [command, email, ...rest] = args;
  if ((command !== "grant" && command !== "revoke") || !email || rest.length > 0) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const log = createLogger({ ...config, LOG_LEVEL: "warn" });
  const database = openDatabase(databaseTarget(config));
  try {
    await migrateToLatest(database);
    // better-auth's tables, with the role column, as the server would make them. The list is the
    // server's to apply: here only the command given changes a role.
    const auth = await AuthService.create(database, { ...config, ADMIN_EMAILS: [] }, log);
    await auth.close();
    const result = await setRole(database.db, email, command === "grant" ? "admin" : "customer", COMMAND_LINE);
    if (!result.ok) {
      console.error(result.message);
      return 1;
    }
    const role = command === "grant" ? "an admin" : "a customer";
    console.log(result.changed ? `${email} is now ${role}.` : `${email} was already ${role}.`);
    return 0;
  } finally {
    await database.close();
  }
}

runCommand(main);
