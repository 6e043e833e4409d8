// Shared by the TypeScript tests: a database of its own per test file (cloned from the migrated
// template), Koers's REST door on a loopback port, and a small organisation to work in.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import crypto from "node:crypto";
import postgres from "postgres";
import type { AddressInfo } from "node:net";
import { buildRestDoor } from "../src/rest.ts";
import { connect, doorRoleName } from "../src/db/connection.ts";
import { ensureDoorRole } from "../src/db/migrate.ts";
import { createApiKey } from "../src/api-key.ts";
import { values, type Role } from "../src/choices.ts";
import { operations, restPath, httpMethod, type Operation } from "../src/registry.ts";

export type { Role };
export const roles = values("rol") as readonly Role[];

function serverUrl(db: string): string {
  const base = process.env.KOERS_TEST_SERVER_URL;
  if (!base || !process.env.KOERS_TEST_TEMPLATE) throw new Error("run the tests with `npm test`");
  const u = new URL(base);
  u.pathname = `/${db}`;
  return u.toString();
}

export interface TestDb { url: string; sql: postgres.Sql; drop(): Promise<void> }

export async function testDatabase(): Promise<TestDb> {
  const name = `koers_t_${crypto.randomBytes(5).toString("hex")}`;
  const admin = postgres(serverUrl("postgres"), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name} template ${process.env.KOERS_TEST_TEMPLATE}`);
  await admin.end();
  const url = serverUrl(name);
  const sql = postgres(url, { max: 2, onnotice: () => {} });
  return {
    url, sql,
    drop: async () => {
      await sql.end();
      const a = postgres(serverUrl("postgres"), { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.unsafe(`drop role if exists ${doorRoleName(name)}`);
      await a.end();
    },
  };
}

export interface Koers { baseUrl: string; stop(): Promise<void> }

/**
 * The REST door on 127.0.0.1, connected as the database's door role (a member of koers_door;
 * a clone of the template needs its own), optionally with a frozen clock (poolSize:
 * connections, default 4).
 */
export async function startKoers(adminUrl: string, options: { now?: string; bodyLimit?: number; poolSize?: number } = {}): Promise<Koers> {
  const doorSql = connect(await ensureDoorRole(adminUrl), { now: options.now ?? null, name: "koers-test", max: options.poolSize ?? 4 });
  const app = buildRestDoor(doorSql, { bodyLimit: options.bodyLimit ?? 256 * 1024 });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, stop: async () => { await app.close(); await doorSql.end(); } };
}

/** A member of a test organisation: ids as the database gives them, name, and API key. */
export interface Member { user_id: string; name: string; apiKey: string; key_id: string }
export interface World { org: string; members: Record<Role, Member> }

/** An organisation with one member per role, each with an API key; REST on, all sections released. */
export async function makeWorld(sql: postgres.Sql, orgName = "Acme BV"): Promise<World> {
  const [{ r: org }] = await sql`select beheer.org_aanmaken(${orgName}) as r` as unknown as [{ r: { org_id: string } }];
  const members = {} as Record<Role, Member>;
  for (const role of roles) {
    const memberName = `${role[0]!.toUpperCase()}${role.slice(1)} ${orgName}`;
    const email = `${role}@${orgName.toLowerCase().replace(/\W+/g, "")}.test`;
    const [{ r: user }] = await sql`select beheer.lid_aanmaken(${org.org_id}, ${memberName}, ${email}, ${role}) as r` as
      unknown as [{ r: { user_id: string } }];
    const k = createApiKey();
    const [{ r: key }] = await sql`select beheer.sleutel_aanmaken(${org.org_id}, ${user.user_id}, ${k.hash}, ${k.hint}) as r` as
      unknown as [{ r: { key_id: string } }];
    members[role] = { user_id: user.user_id, name: memberName, apiKey: k.key, key_id: key.key_id };
  }
  await sql`select beheer.koppeling_zetten(${org.org_id}, 'rest', true, false)`;
  await sql`select beheer.secties_zetten(${org.org_id}, ${values("sectie") as string[]}::text[], true)`;
  return { org: org.org_id, members };
}

export interface HttpResult { status: number; body: any; headers: Headers }

export async function request(baseUrl: string, method: "GET" | "POST", path: string,
  options: { apiKey?: string; query?: Record<string, string>; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}): Promise<HttpResult> {
  const url = new URL(path, baseUrl);
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.append(k, v);
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  let body: string | undefined;
  if (options.rawBody !== undefined || options.body !== undefined) {
    headers["content-type"] = "application/json";
    body = options.rawBody ?? JSON.stringify(options.body);
  }
  const r = await fetch(url, { method, headers, body });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null, headers: r.headers };
}

/** The newest call-log row of an organisation. */
export async function lastCall(sql: postgres.Sql, org: string) {
  const [r] = await sql`select * from app_private.aanroepen where org_id = ${org} and operatie <> 'test'
                        order by tijdstip desc limit 1`;
  if (!r) throw new Error(`no call-log row for ${org}`);
  return r;
}

export async function lastCallWithoutOrg(sql: postgres.Sql) {
  const [r] = await sql`select * from app_private.aanroepen_zonder_org order by tijdstip desc limit 1`;
  if (!r) throw new Error("no call-log row without organisation");
  return r;
}

/** The two steps of a write: proposal, then confirmation with the code. */
export async function writeTwoStep(baseUrl: string, path: string, apiKey: string, body: Record<string, unknown>) {
  const proposal = await request(baseUrl, "POST", path, { apiKey, body });
  if (proposal.status !== 200) return { proposal, confirmed: proposal };
  const confirmed = await request(baseUrl, "POST", path, { apiKey, body: { ...body, bevestigcode: proposal.body.bevestigcode } });
  return { proposal, confirmed };
}

/** What a refusal test needs beyond the registry: valid input and one bad parameter. */
export interface RefusalCase {
  operation: string;
  /** Valid input for the caller (without org_id). */
  input: () => Record<string, unknown>;
  /** Input with one bad parameter, and its name. */
  invalid: [Record<string, unknown>, string];
}

/** An operation of the registry, by name: its path, method, section, module and kind come from there. */
export function operation(name: string): Operation {
  const o = operations.find((x) => x.name === name);
  if (!o) throw new Error(`${name} is not in the registry`);
  return o;
}

export interface TestSetup { db: TestDb; baseUrl: string; w: World; other: World; revoked: Member }

/**
 * Registers one test per refusal kind that applies to an operation, each checking status,
 * fout code and call-log row, and restoring the world afterwards. The context is read when the
 * tests run (after the file's before hook).
 */
export function refusalTests(ctx: () => TestSetup, c: RefusalCase): void {
  const o = operation(c.operation);
  const call = (apiKey: string | undefined, extra: Record<string, unknown> = {}, org?: string) => {
    const { baseUrl, w } = ctx();
    const input = { org_id: org ?? w.org, ...c.input(), ...extra };
    return httpMethod(o) === "GET"
      ? request(baseUrl, "GET", restPath(o), { apiKey, query: Object.fromEntries(Object.entries(input).map(([k, v]) => [k, String(v)])) })
      : request(baseUrl, "POST", restPath(o), { apiKey, body: input });
  };
  async function expectRefusal(r: HttpResult, status: number, code: string, org: string | null, parameter?: string) {
    const { db } = ctx();
    assert.equal(r.status, status, JSON.stringify(r.body));
    assert.equal(r.body.fout.code, code);
    if (parameter) assert.equal(r.body.fout.parameter, parameter);
    const log = org ? await lastCall(db.sql, org) : await lastCallWithoutOrg(db.sql);
    assert.deepEqual([log.operatie, log.status, log.fout_code], [c.operation, status, code]);
  }
  const ownerKey = () => ctx().w.members.eigenaar.apiKey;
  it(`${c.operation}: 401 geen_sleutel`, async () => expectRefusal(await call(undefined), 401, "geen_sleutel", null));
  it(`${c.operation}: 401 sleutel_ingetrokken`, async () =>
    expectRefusal(await call(ctx().revoked.apiKey), 401, "sleutel_ingetrokken", ctx().w.org));
  it(`${c.operation}: 403 verkeerde_organisatie`, async () =>
    expectRefusal(await call(ownerKey(), {}, ctx().other.org), 403, "verkeerde_organisatie", ctx().w.org, "org_id"));
  it(`${c.operation}: 403 koppeling_uit`, async () => {
    const { db, w } = ctx();
    await db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', false, null)`;
    try { await expectRefusal(await call(ownerKey()), 403, "koppeling_uit", w.org); }
    finally { await db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', true, null)`; }
  });
  if (o.section) {
    it(`${c.operation}: 403 onderdeel_uit`, async () => {
      const { db, w } = ctx();
      await db.sql`select beheer.secties_zetten(${w.org}, array[${o.section}], false)`;
      try { await expectRefusal(await call(ownerKey()), 403, "onderdeel_uit", w.org); }
      finally { await db.sql`select beheer.secties_zetten(${w.org}, array[${o.section}], true)`; }
    });
  }
  it(`${c.operation}: 403 rol_mag_niet (module switched off)`, async () => {
    const { db, w } = ctx();
    await db.sql`insert into app.modules (org_id, module, aan) values (${w.org}, ${o.module}, false)`;
    try { await expectRefusal(await call(ownerKey()), 403, "rol_mag_niet", w.org); }
    finally { await db.sql`delete from app.modules where org_id = ${w.org} and module = ${o.module}`; }
  });
  if (o.writes) {
    it(`${c.operation}: 403 alleen_lezen`, async () => {
      const { db, w } = ctx();
      await db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', true, true)`;
      try { await expectRefusal(await call(ownerKey()), 403, "alleen_lezen", w.org); }
      finally { await db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', true, false)`; }
    });
  }
  it(`${c.operation}: 400 ongeldige_parameters`, async () =>
    expectRefusal(await call(ownerKey(), c.invalid[0]), 400, "ongeldige_parameters", ctx().w.org, c.invalid[1]));
}

/** A member of the world whose API key has been revoked. */
export async function revokedMember(sql: postgres.Sql, w: World): Promise<Member> {
  const [{ r: user }] = await sql`select beheer.lid_aanmaken(${w.org}, 'Oud Lid', ${`oud-${w.org}@test.nl`}, 'admin') as r` as
    unknown as [{ r: { user_id: string } }];
  const k = createApiKey();
  const [{ r: key }] = await sql`select beheer.sleutel_aanmaken(${w.org}, ${user.user_id}, ${k.hash}, ${k.hint}) as r` as
    unknown as [{ r: { key_id: string } }];
  await sql`select beheer.sleutel_intrekken(${key.key_id})`;
  return { user_id: user.user_id, name: "Oud Lid", apiKey: k.key, key_id: key.key_id };
}

/**
 * The usual world of a test file: its own database, the REST door (with a frozen clock when
 * given), an organisation with one member per role, a second organisation, and a member whose
 * key was revoked. Filled in by a before hook (then `afterSetup`, the file's own setup), cleaned
 * up by an after hook.
 */
export function setupWorld(options: { now?: string; poolSize?: number; afterSetup?: (o: TestSetup) => Promise<void> } = {}): TestSetup & { koers: Koers } {
  const o = {} as TestSetup & { koers: Koers };
  before(async () => {
    o.db = await testDatabase();
    o.koers = await startKoers(o.db.url, { now: options.now, poolSize: options.poolSize });
    o.baseUrl = o.koers.baseUrl;
    o.w = await makeWorld(o.db.sql);
    o.other = await makeWorld(o.db.sql, "Ander BV");
    o.revoked = await revokedMember(o.db.sql, o.w);
    await options.afterSetup?.(o);
  });
  after(async () => {
    await o.koers.stop();
    await o.db.drop();
  });
  return o;
}
