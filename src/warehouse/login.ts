// What a tool needs to connect with a new warehouse login: host, port and database of the
// server the caller's connection reaches, and the postgresql:// URL with the password. Shared by
// `koers warehouse create` and the owner's Integrations page; shown once by each.
import type postgres from "postgres";

export interface LoginAddress { host: string; port: number; database: string; url: string }

export function loginAddress(sql: postgres.Sql<any>, gebruiker: string, password: string): LoginAddress {
  const host = String(sql.options.host[0]);
  const port = Number(sql.options.port[0]);
  const database = String(sql.options.database);
  return { host, port, database, url: `postgresql://${gebruiker}:${password}@${host}:${port}/${encodeURIComponent(database)}` };
}
