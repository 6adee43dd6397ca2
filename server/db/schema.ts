/** The tables as Kysely sees them; migrations.ts creates them. */
export interface Schema {
  settings: SettingsTable;
}

/** Values the server generates once and every instance shares (e.g. the auth secret). */
export interface SettingsTable {
  key: string;
  value: string;
}
