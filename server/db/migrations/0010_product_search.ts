import { type Kysely, type Migration, PostgresAdapter, sql } from "kysely";

// Search on the database's own full-text index, so no instance holds the catalogue's words in
// memory (an in-memory index of 100,000 products took ~250 MB and ~10 s to build). Only products on
// sale are found. Both engines split words as server/search/text.ts does (letters and digits; case
// and accents do not count), so a query's words meet the index's terms.
//
// SQLite: an FTS5 table over the products' title, description and category (external content: the
// words are not stored twice), kept by triggers in the writing transaction; the updates of stock
// and reservations (every checkout) do not touch it. Prefix indexes of 1 to 3 characters keep the
// count of a short prefix ("la", while typing "lamp") quick. `product_search_terms` lists its terms.
//
// PostgreSQL: a stored generated tsvector (title weight A, category B, description D) with a GIN
// index over the products on sale, and the title's own (a small one): which matches have a query
// word in the title is then read from an index, not from every matching row.

const onPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** PostgreSQL: `column`'s words as the shop splits them: compatibility forms folded, accents and case dropped, anything but letters and digits a space. */
const words = (column: string) => `regexp_replace(regexp_replace(lower(normalize(${column}, NFKD)), '[\\u0300-\\u036f]', '', 'g'), '[^[:alnum:]]+', ' ', 'g')`;

const SQLITE_UP = [
  `create virtual table product_search using fts5(title, description, category, content = 'products', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3')`,
  `create virtual table product_search_terms using fts5vocab(product_search, row)`,
  `insert into product_search(rowid, title, description, category) select id, title, description, category from products where archived_at is null`,
  `create trigger product_search_added after insert on products when new.archived_at is null begin
     insert into product_search(rowid, title, description, category) values (new.id, new.title, new.description, new.category);
   end`,
  `create trigger product_search_removed after delete on products when old.archived_at is null begin
     insert into product_search(product_search, rowid, title, description, category) values ('delete', old.id, old.title, old.description, old.category);
   end`,
  // An import rewrites every row it is given: only a change of words, or of being on sale, touches the index.
  `create trigger product_search_changed after update of title, description, category, archived_at on products
   when new.title is not old.title or new.description is not old.description or new.category is not old.category or (new.archived_at is null) <> (old.archived_at is null)
   begin
     insert into product_search(product_search, rowid, title, description, category) select 'delete', old.id, old.title, old.description, old.category where old.archived_at is null;
     insert into product_search(rowid, title, description, category) select new.id, new.title, new.description, new.category where new.archived_at is null;
   end`,
];

const SQLITE_DOWN = [
  "drop trigger product_search_changed",
  "drop trigger product_search_removed",
  "drop trigger product_search_added",
  "drop table product_search_terms",
  "drop table product_search",
];

const POSTGRES_UP = [
  `alter table products add column search_document tsvector generated always as (
     setweight(to_tsvector('simple', ${words("title")}), 'A') ||
     setweight(to_tsvector('simple', ${words("category")}), 'B') ||
     setweight(to_tsvector('simple', ${words("description")}), 'D')) stored`,
  "create index products_search on products using gin (search_document) where archived_at is null",
  `alter table products add column search_title tsvector generated always as (to_tsvector('simple', ${words("title")})) stored`,
  "create index products_search_title on products using gin (search_title) where archived_at is null",
];

const POSTGRES_DOWN = ["drop index products_search_title", "alter table products drop column search_title", "drop index products_search", "alter table products drop column search_document"];

// Both engines: the archived products, for the back office's title search (they are not in the full-text index).
const ARCHIVED_UP = ["create index products_archived on products (id) where archived_at is not null"];
const ARCHIVED_DOWN = ["drop index products_archived"];

async function run(db: Kysely<unknown>, statements: string[]) {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export default {
  async up(db: Kysely<unknown>) {
    await run(db, [...(onPostgres(db) ? POSTGRES_UP : SQLITE_UP), ...ARCHIVED_UP]);
  },
  async down(db: Kysely<unknown>) {
    await run(db, [...ARCHIVED_DOWN, ...(onPostgres(db) ? POSTGRES_DOWN : SQLITE_DOWN)]);
  },
} satisfies Migration;
