// Shared by the TypeScript tests: a database of its own per test file (cloned from the migrated
// template), Koers's REST door on a loopback port, and a small organisation to work in.
import crypto from "node:crypto";
import postgres from "postgres";
import type { AddressInfo } from "node:net";
import { bouwRest } from "../src/rest.ts";
import { deurUrl, verbind } from "../src/db/verbinding.ts";
import { maakSleutel } from "../src/sleutel.ts";

export type Rol = "eigenaar" | "admin" | "mt" | "lid" | "coach";
export const rollen: Rol[] = ["eigenaar", "admin", "mt", "lid", "coach"];

function serverUrl(db: string): string {
  const basis = process.env.KOERS_TEST_SERVER_URL;
  if (!basis || !process.env.KOERS_TEST_TEMPLATE) throw new Error("run the tests with `npm test`");
  const u = new URL(basis);
  u.pathname = `/${db}`;
  return u.toString();
}

export interface TestDb { url: string; sql: postgres.Sql; ruimOp(): Promise<void> }

export async function testDatabase(): Promise<TestDb> {
  const naam = `koers_t_${crypto.randomBytes(5).toString("hex")}`;
  const beheer = postgres(serverUrl("postgres"), { max: 1, onnotice: () => {} });
  await beheer.unsafe(`create database ${naam} template ${process.env.KOERS_TEST_TEMPLATE}`);
  await beheer.end();
  const url = serverUrl(naam);
  const sql = postgres(url, { max: 2, onnotice: () => {} });
  return {
    url, sql,
    ruimOp: async () => {
      await sql.end();
      const b = postgres(serverUrl("postgres"), { max: 1, onnotice: () => {} });
      await b.unsafe(`drop database if exists ${naam} with (force)`);
      await b.end();
    },
  };
}

export interface Koers { basis: string; stop(): Promise<void> }

/** The REST door on 127.0.0.1, connected as koers_door, optionally with a frozen clock. */
export async function startKoers(adminUrl: string, opties: { now?: string; bodyLimit?: number } = {}): Promise<Koers> {
  const deur = verbind(deurUrl(adminUrl), { now: opties.now ?? null, naam: "koers-test", max: 4 });
  const app = bouwRest(deur, { bodyLimit: opties.bodyLimit ?? 256 * 1024 });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { basis: `http://127.0.0.1:${port}`, stop: async () => { await app.close(); await deur.end(); } };
}

export interface Lid { user_id: string; naam: string; sleutel: string; sleutel_id: string }
export interface Wereld { org: string; leden: Record<Rol, Lid> }

/** An organisation with one member per role, each with an API key; REST on, all sections released. */
export async function maakWereld(sql: postgres.Sql, naam = "Acme BV"): Promise<Wereld> {
  const [{ r: org }] = await sql`select beheer.org_aanmaken(${naam}) as r` as unknown as [{ r: { org_id: string } }];
  const leden = {} as Record<Rol, Lid>;
  for (const rol of rollen) {
    const lidNaam = `${rol[0]!.toUpperCase()}${rol.slice(1)} ${naam}`;
    const email = `${rol}@${naam.toLowerCase().replace(/\W+/g, "")}.test`;
    const [{ r: lid }] = await sql`select beheer.lid_aanmaken(${org.org_id}, ${lidNaam}, ${email}, ${rol}) as r` as
      unknown as [{ r: { user_id: string } }];
    const k = maakSleutel();
    const [{ r: s }] = await sql`select beheer.sleutel_aanmaken(${org.org_id}, ${lid.user_id}, ${k.hash}, ${k.hint}) as r` as
      unknown as [{ r: { key_id: string } }];
    leden[rol] = { user_id: lid.user_id, naam: lidNaam, sleutel: k.sleutel, sleutel_id: s.key_id };
  }
  await sql`select beheer.koppeling_zetten(${org.org_id}, 'rest', true, false)`;
  await sql`select beheer.secties_zetten(${org.org_id},
    array['team','prioriteiten','kpis','weektaken','reviews','financien'], true)`;
  return { org: org.org_id, leden };
}

export interface Resultaat { status: number; body: any; headers: Headers }

export async function vraag(basis: string, methode: "GET" | "POST", pad: string,
  opties: { sleutel?: string; query?: Record<string, string>; body?: unknown; ruweBody?: string; headers?: Record<string, string> } = {}): Promise<Resultaat> {
  const url = new URL(pad, basis);
  for (const [k, v] of Object.entries(opties.query ?? {})) url.searchParams.append(k, v);
  const headers: Record<string, string> = { ...(opties.headers ?? {}) };
  if (opties.sleutel) headers.authorization = `Bearer ${opties.sleutel}`;
  let body: string | undefined;
  if (opties.ruweBody !== undefined || opties.body !== undefined) {
    headers["content-type"] = "application/json";
    body = opties.ruweBody ?? JSON.stringify(opties.body);
  }
  const r = await fetch(url, { method: methode, headers, body });
  const tekst = await r.text();
  return { status: r.status, body: tekst ? JSON.parse(tekst) : null, headers: r.headers };
}

/** The newest call-log row of an organisation. */
export async function laatsteAanroep(sql: postgres.Sql, org: string) {
  const [r] = await sql`select * from app_private.aanroepen where org_id = ${org} and operatie <> 'test'
                        order by tijdstip desc limit 1`;
  if (!r) throw new Error(`no call-log row for ${org}`);
  return r;
}

export async function laatsteAanroepZonderOrg(sql: postgres.Sql) {
  const [r] = await sql`select * from app_private.aanroepen_zonder_org order by tijdstip desc limit 1`;
  if (!r) throw new Error("no call-log row without organisation");
  return r;
}
