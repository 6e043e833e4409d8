// Shared by the TypeScript tests: a database of its own per test file (cloned from the migrated
// template), Koers's REST door on a loopback port, and a small organisation to work in.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import crypto from "node:crypto";
import postgres from "postgres";
import type { AddressInfo } from "node:net";
import { buildRestDoor } from "../src/rest.ts";
import { doorUrl, connect } from "../src/db/connection.ts";
import { createApiKey } from "../src/api-key.ts";

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
  const deur = connect(doorUrl(adminUrl), { now: opties.now ?? null, name: "koers-test", max: 4 });
  const app = buildRestDoor(deur, { bodyLimit: opties.bodyLimit ?? 256 * 1024 });
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
    const k = createApiKey();
    const [{ r: s }] = await sql`select beheer.sleutel_aanmaken(${org.org_id}, ${lid.user_id}, ${k.hash}, ${k.hint}) as r` as
      unknown as [{ r: { key_id: string } }];
    leden[rol] = { user_id: lid.user_id, naam: lidNaam, sleutel: k.key, sleutel_id: s.key_id };
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

/** The two steps of a write: proposal, then confirmation with the code. */
export async function schrijf(basis: string, pad: string, sleutel: string, body: Record<string, unknown>) {
  const voorstel = await vraag(basis, "POST", pad, { sleutel, body });
  if (voorstel.status !== 200) return { voorstel, uitgevoerd: voorstel };
  const uitgevoerd = await vraag(basis, "POST", pad, { sleutel, body: { ...body, bevestigcode: voorstel.body.bevestigcode } });
  return { voorstel, uitgevoerd };
}

export interface WeigerGeval {
  naam: string;
  methode: "GET" | "POST";
  pad: string;
  /** Valid input for the caller (without org_id). */
  invoer: () => Record<string, unknown>;
  sectie: string | null;
  module: string;
  schrijft: boolean;
  /** Input with one bad parameter, and its name. */
  ongeldig: [Record<string, unknown>, string];
}

export interface Omgeving { db: TestDb; basis: string; w: Wereld; ander: Wereld; ingetrokken: Lid }

/**
 * Registers one test per refusal kind that applies to an operation, each checking status,
 * fout code and call-log row, and restoring the world afterwards. The context is read when the
 * tests run (after the file's before hook).
 */
export function weigeringen(ctx: () => Omgeving, g: WeigerGeval): void {
  const roep = (sleutel: string | undefined, extra: Record<string, unknown> = {}, org?: string) => {
    const { basis, w } = ctx();
    const invoer = { org_id: org ?? w.org, ...g.invoer(), ...extra };
    return g.methode === "GET"
      ? vraag(basis, "GET", g.pad, { sleutel, query: Object.fromEntries(Object.entries(invoer).map(([k, v]) => [k, String(v)])) })
      : vraag(basis, "POST", g.pad, { sleutel, body: invoer });
  };
  async function verwacht(r: Resultaat, status: number, code: string, org: string | null, parameter?: string) {
    const { db } = ctx();
    assert.equal(r.status, status, JSON.stringify(r.body));
    assert.equal(r.body.fout.code, code);
    if (parameter) assert.equal(r.body.fout.parameter, parameter);
    const log = org ? await laatsteAanroep(db.sql, org) : await laatsteAanroepZonderOrg(db.sql);
    assert.deepEqual([log.operatie, log.status, log.fout_code], [g.naam, status, code]);
  }
  const eigenaar = () => ctx().w.leden.eigenaar.sleutel;
  it(`${g.naam}: 401 geen_sleutel`, async () => verwacht(await roep(undefined), 401, "geen_sleutel", null));
  it(`${g.naam}: 401 sleutel_ingetrokken`, async () =>
    verwacht(await roep(ctx().ingetrokken.sleutel), 401, "sleutel_ingetrokken", ctx().w.org));
  it(`${g.naam}: 403 verkeerde_organisatie`, async () =>
    verwacht(await roep(eigenaar(), {}, ctx().ander.org), 403, "verkeerde_organisatie", ctx().w.org, "org_id"));
  it(`${g.naam}: 403 koppeling_uit`, async () => {
    const { db, w } = ctx();
    await db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', false, null)`;
    try { await verwacht(await roep(eigenaar()), 403, "koppeling_uit", w.org); }
    finally { await db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', true, null)`; }
  });
  if (g.sectie) {
    it(`${g.naam}: 403 onderdeel_uit`, async () => {
      const { db, w } = ctx();
      await db.sql`select beheer.secties_zetten(${w.org}, array[${g.sectie}], false)`;
      try { await verwacht(await roep(eigenaar()), 403, "onderdeel_uit", w.org); }
      finally { await db.sql`select beheer.secties_zetten(${w.org}, array[${g.sectie}], true)`; }
    });
  }
  it(`${g.naam}: 403 rol_mag_niet (module switched off)`, async () => {
    const { db, w } = ctx();
    await db.sql`insert into app.modules (org_id, module, aan) values (${w.org}, ${g.module}, false)`;
    try { await verwacht(await roep(eigenaar()), 403, "rol_mag_niet", w.org); }
    finally { await db.sql`delete from app.modules where org_id = ${w.org} and module = ${g.module}`; }
  });
  if (g.schrijft) {
    it(`${g.naam}: 403 alleen_lezen`, async () => {
      const { db, w } = ctx();
      await db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', true, true)`;
      try { await verwacht(await roep(eigenaar()), 403, "alleen_lezen", w.org); }
      finally { await db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', true, false)`; }
    });
  }
  it(`${g.naam}: 400 ongeldige_parameters`, async () =>
    verwacht(await roep(eigenaar(), g.ongeldig[0]), 400, "ongeldige_parameters", ctx().w.org, g.ongeldig[1]));
}

/** A member of the world whose API key has been revoked. */
export async function ingetrokkenLid(sql: postgres.Sql, w: Wereld): Promise<Lid> {
  const [{ r: lid }] = await sql`select beheer.lid_aanmaken(${w.org}, 'Oud Lid', ${`oud-${w.org}@test.nl`}, 'admin') as r` as
    unknown as [{ r: { user_id: string } }];
  const k = createApiKey();
  const [{ r: s }] = await sql`select beheer.sleutel_aanmaken(${w.org}, ${lid.user_id}, ${k.hash}, ${k.hint}) as r` as
    unknown as [{ r: { key_id: string } }];
  await sql`select beheer.sleutel_intrekken(${s.key_id})`;
  return { user_id: lid.user_id, naam: "Oud Lid", sleutel: k.key, sleutel_id: s.key_id };
}

/**
 * The usual world of a test file: its own database, the REST door (with a frozen clock when
 * given), an organisation with one member per role, a second organisation, and a member whose
 * key was revoked. Filled in by a before hook (then `daarna`, the file's own setup), cleaned up
 * by an after hook.
 */
export function omgeving(opties: { now?: string; daarna?: (o: Omgeving) => Promise<void> } = {}): Omgeving & { koers: Koers } {
  const o = {} as Omgeving & { koers: Koers };
  before(async () => {
    o.db = await testDatabase();
    o.koers = await startKoers(o.db.url, { now: opties.now });
    o.basis = o.koers.basis;
    o.w = await maakWereld(o.db.sql);
    o.ander = await maakWereld(o.db.sql, "Ander BV");
    o.ingetrokken = await ingetrokkenLid(o.db.sql, o.w);
    await opties.daarna?.(o);
  });
  after(async () => {
    await o.koers.stop();
    await o.db.ruimOp();
  });
  return o;
}
