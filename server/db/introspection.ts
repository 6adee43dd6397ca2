import { type DatabaseIntrospector, type DatabaseMetadataOptions, type Kysely, PostgresDialect } from "kysely";

/** PostgreSQL's "schema does not exist". */
const INVALID_SCHEMA_NAME = "3F000";
const ATTEMPTS = 5;

/**
 * PostgreSQL with an introspector that survives other schemas coming and going. Kysely's (which
 * the migrator and better-auth use to see which tables exist) reads every schema on the server;
 * when another shop or test drops its schema during that scan, PostgreSQL fails the whole query
 * with "schema … does not exist", though the schema it names is not ours. Asking again is right:
 * the scan then no longer meets the vanished schema.
 */
export class SharedServerPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return survivingVanishedSchemas(super.createIntrospector(db));
  }
}

/** `inner`, asking again (a few times) when a scan fails on a schema that vanished meanwhile. */
export function survivingVanishedSchemas(inner: DatabaseIntrospector): DatabaseIntrospector {
  return {
    getSchemas: () => retried(() => inner.getSchemas()),
    getTables: (options?: DatabaseMetadataOptions) => retried(() => inner.getTables(options)),
    getMetadata: (options?: DatabaseMetadataOptions) => retried(() => inner.getMetadata(options)),
  };
}

async function retried<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (code !== INVALID_SCHEMA_NAME || attempt >= ATTEMPTS) throw error;
    }
  }
}
