// The owner's pages (/app) in a real headless Chromium (Debian's chromium, driven by
// playwright-core): an owner switches the REST door on, releases a section, makes an API key
// (shown once) and a webhook to a local HTTPS receiver, sends a test message, sees a failed
// delivery with its next attempt and redelivers it, revokes the key, filters the call log,
// creates a warehouse login (connects with it over TCP, SCRAM) and revokes it; an
// MT member approves a strategy proposal made over REST; a coach establishes a note made over
// MCP. And the refusals: not an owner, another origin, no CSRF token, a session after sign-out
// or demotion, a secret shown twice, a stale password, cookies without HttpOnly.
// Every screen is kept as test-output/screenshots/NN-<what>.png (not committed).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import pg from "pg";
import { buildRestDoor } from "../src/rest.ts";
import { connect, rememberServiceAddress, type Sql } from "../src/db/connection.ts";
import { ensureDoorRole } from "../src/db/migrate.ts";
import { mountMcp } from "../src/mcp/mount.ts";
import { mountApp } from "../src/app/routes.ts";
import { sessionCookie } from "../src/app/session.ts";
import { readConfig } from "../src/config.ts";
import { start } from "../src/server.ts";
import { makeWorld, request, testDatabase, type TestDb, type World } from "./helpers.ts";
import { aiDoorOn, email, PASSWORD, rawMcp, signInByHand } from "./mcp-helpers.ts";
import { makeCertificate, ok, startReceiver, startWorkerProcess, status, waitUntil,
  type Certificate, type Receiver, type WorkerProcess } from "./webhooks-support.ts";

// The receiver listens on loopback: allowed for tests only (docs/webhooks.md).
process.env.KOERS_WEBHOOK_PRIVATE = "aan";

const SHOTS = path.resolve(import.meta.dirname, "../test-output/screenshots");
let shotNumber = 0;
async function shot(page: Page, what: string): Promise<void> {
  shotNumber += 1;
  await page.screenshot({ path: path.join(SHOTS, `${String(shotNumber).padStart(2, "0")}-${what}.png`), fullPage: true });
}

let db: TestDb;
let w: World;
let base = "";
let stopServer: () => Promise<void>;
let browser: Browser;
let certificate: Certificate;
let receiver: Receiver;
let worker: WorkerProcess;
const setCookies: { url: string; value: string }[] = [];
const contexts: BrowserContext[] = [];

before(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const f of fs.readdirSync(SHOTS)) fs.rmSync(path.join(SHOTS, f));
  db = await testDatabase();
  w = await makeWorld(db.sql);
  await aiDoorOn(db.sql, w);
  const doorSql = connect(await ensureDoorRole(db.url), { now: null, name: "koers-test", max: 4 });
  const appSql: Sql = connect(db.url, { now: null, name: "koers-app-test", max: 4 });
  const app = buildRestDoor(doorSql, { bodyLimit: 256 * 1024 });
  await mountMcp(app, doorSql, { publicUrl: () => base, allowedOrigins: [] });
  await mountApp(app, appSql, { publicUrl: () => base });
  await app.listen({ host: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  // As src/server.ts does: without KOERS_PUBLIC_URL, the refusals name the address it started on.
  await rememberServiceAddress(db.url, base);
  stopServer = async () => { await app.close(); await doorSql.end(); await appSql.end(); };
  certificate = makeCertificate();
  receiver = await startReceiver(certificate);
  worker = await startWorkerProcess(db.url, certificate);
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"], headless: true });
});

after(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await worker?.stop();
  await receiver?.close();
  certificate?.remove();
  await stopServer?.();
  await db?.drop();
});

/** A browser of its own (its own cookies), recording every cookie the pages set. */
async function newContext(): Promise<BrowserContext> {
  const c = await browser.newContext({ locale: "nl-NL" });
  contexts.push(c);
  c.on("response", (r) => {
    if (!new URL(r.url()).pathname.startsWith("/app")) return;
    void r.headerValue("set-cookie").then((v) => { if (v) setCookies.push({ url: r.url(), value: v }); });
  });
  return c;
}

async function signIn(c: BrowserContext, role: keyof World["members"], screenshot?: string): Promise<Page> {
  const page = await c.newPage();
  await page.goto(`${base}/app/aanmelden`);
  if (screenshot) await shot(page, screenshot);
  await page.getByLabel("E-mailadres").fill(await email(db.sql, w.members[role]));
  await page.getByLabel("Wachtwoord").fill(PASSWORD);
  await page.getByRole("button", { name: "Aanmelden" }).click();
  await page.waitForURL(/\/app\/(integraties|account)/, { timeout: 10_000 }).catch(async (e) => {
    throw new Error(`sign-in as ${role} did not arrive (${page.url()}): ${(await page.content()).slice(0, 3000)}`, { cause: e });
  });
  return page;
}

/** The browser's cookie header for Koers, to post by hand as that browser. */
async function cookieHeader(c: BrowserContext): Promise<string> {
  return (await c.cookies(base)).map((x) => `${x.name}=${x.value}`).join("; ");
}

/** Posts a form as the browser would, with the fields given (and the browser's cookies). */
async function post(c: BrowserContext, pathname: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const r = await fetch(new URL(pathname, base), { method: "POST", redirect: "manual", body: new URLSearchParams(fields),
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: await cookieHeader(c), origin: base, ...headers } });
  return { status: r.status, html: await r.text(), location: r.headers.get("location") };
}

/** The fields a form on the page would send. */
function formFields(page: Page, action: string): Promise<Record<string, string>> {
  return page.locator(`form[action="${action}"]`).first().evaluate((f) =>
    Object.fromEntries([...new FormData(f as HTMLFormElement)].map(([k, v]) => [k, String(v)])));
}

const door = async (d: string) => (await db.sql`select aan, alleen_lezen from app.koppelingen where org_id = ${w.org} and door = ${d}`)[0];
const keyCount = async () => Number((await db.sql`select count(*) as n from app_private.api_sleutels where org_id = ${w.org}`)[0]!.n);

describe("the owner's Integrations page", () => {
  let owner: BrowserContext;
  let page: Page;
  let apiKey = "";

  it("an owner signs in, switches the REST door on and releases a section", async () => {
    await db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', false, false)`;
    await db.sql`select beheer.secties_zetten(${w.org}, ${["kpis"]}::text[], false)`;
    owner = await newContext();
    page = await signIn(owner, "eigenaar", "aanmelden");
    assert.match(page.url(), /\/app\/integraties$/);
    await shot(page, "integraties");
    const rest = page.locator("fieldset", { has: page.locator("legend", { hasText: "REST API" }) });
    await rest.getByLabel("Aan", { exact: true }).check();
    await page.getByRole("button", { name: "REST API opslaan" }).click();
    await page.waitForURL(/gedaan=koppeling/);
    assert.deepEqual({ ...await door("rest") }, { aan: true, alleen_lezen: false });
    await page.getByLabel("kpis", { exact: true }).check();
    await page.getByRole("button", { name: "Onderdelen opslaan" }).click();
    await page.waitForURL(/gedaan=secties/);
    assert.equal((await db.sql`select vrijgegeven from app.secties where org_id = ${w.org} and sectie = 'kpis'`)[0]!.vrijgegeven, true);
    await shot(page, "koppeling-en-onderdelen-opgeslagen");
  });

  it("creates an API key shown once, which works at once; posting the form again makes none and shows nothing", async () => {
    const before = await keyCount();
    const fields = await formFields(page, "/app/integraties/sleutels");
    await page.getByRole("button", { name: "Nieuwe API-sleutel maken" }).click();
    apiKey = (await page.locator("#geheim").textContent())!.trim();
    assert.match(apiKey, /^koers_live_/);
    await shot(page, "api-sleutel-eenmalig-getoond");
    const who = await request(base, "GET", "/api/v1/wie-ben-ik", { apiKey });
    assert.equal(who.status, 200);
    assert.equal(who.body.gebruiker.user_id, w.members.eigenaar.user_id);
    // A reload posts the same form again: refused, no second key, no secret.
    const again = await post(owner, "/app/integraties/sleutels", fields);
    assert.equal(again.status, 409);
    assert.match(again.html, /al verstuurd/);
    assert.doesNotMatch(again.html, /koers_live_[0-9A-Za-z]{20}/);
    const withoutToken = await post(owner, "/app/integraties/sleutels", { ...fields, eenmalig: "" });
    assert.equal(withoutToken.status, 409, "a form without its one-time token makes nothing either");
    assert.equal(await keyCount(), before + 1);
    await page.goto(`${base}/app/integraties`);
    assert.equal(await page.locator("#geheim").count(), 0, "the list never shows the key again");
    await page.getByRole("cell", { name: `koers_live_…${apiKey.slice(-4)}`, exact: true }).waitFor();
  });

  it("creates a webhook to a local HTTPS receiver; the secret is shown once and a test message arrives", async () => {
    receiver.answer = ok;
    await page.getByLabel("Naam").fill("Boekhouding");
    await page.getByLabel("Adres (https)").fill(receiver.url("/koers"));
    await page.getByLabel("taak.aangemaakt").check();
    await page.getByRole("button", { name: "Webhook maken" }).click();
    assert.match((await page.locator("#geheim").textContent())!.trim(), /^koers_whsec_/);
    await shot(page, "webhook-geheim-eenmalig-getoond");
    await page.getByRole("button", { name: "Testbericht naar Boekhouding" }).click();
    await page.waitForURL(/gedaan=getest/);
    const [first] = await receiver.waitFor(1, 30_000);
    assert.equal(first!.headers["x-service-event"], "webhook.test");
    await shot(page, "testbericht-verstuurd");
  });

  it("shows a failed delivery with its next attempt; redelivering sends the same message again", async () => {
    receiver.answer = status(500);
    await page.getByRole("button", { name: "Testbericht naar Boekhouding" }).click();
    await page.waitForURL(/gedaan=getest/);
    const [, failed] = await receiver.waitFor(2, 30_000);
    await waitUntil(async () => (await db.sql`select 1 from app_private.webhook_afleveringen
      where org_id = ${w.org} and status_code = 500 and werker_slot is null`).length > 0, 30_000, "the failed delivery recorded");
    await page.getByRole("link", { name: "Afleveringen van Boekhouding" }).click();
    const row = page.locator("tbody tr").first();
    await row.getByRole("cell", { name: "500", exact: true }).waitFor();
    const cells = await row.locator("td").allTextContents();
    assert.notEqual(cells[6]!.trim(), "", `the next attempt is shown: ${cells.join(" | ")}`);
    await shot(page, "mislukte-aflevering-met-volgende-poging");
    receiver.answer = ok;
    await row.getByRole("button", { name: /opnieuw versturen/ }).click();
    await page.waitForURL(/gedaan=opnieuw/);
    const third = (await receiver.waitFor(3, 30_000))[2]!;
    assert.equal(third.json.id, failed!.json.id, "the same message");
    await page.reload();
    await shot(page, "opnieuw-verstuurd");
  });

  it("revokes the API key: it answers 401 at once", async () => {
    await page.goto(`${base}/app/integraties`);
    await page.getByRole("button", { name: `Sleutel koers_live_…${apiKey.slice(-4)} intrekken` }).click();
    await page.waitForURL(/gedaan=ingetrokken/);
    const who = await request(base, "GET", "/api/v1/wie-ben-ik", { apiKey });
    assert.equal(who.status, 401);
    assert.equal(who.body.fout.code, "sleutel_ingetrokken");
    await shot(page, "sleutel-ingetrokken");
  });

  it("filters the call log by door, operation and status", async () => {
    // The filter form's controls by name: a label's accessible name also holds the control's value.
    await page.locator('select[name="door"]').selectOption("app");
    await page.locator('input[name="operatie"]').fill("sleutel_aanmaken");
    await page.locator('input[name="status"]').fill("200");
    await page.getByRole("button", { name: "Log filteren" }).click();
    await page.waitForURL(/operatie=sleutel_aanmaken/);
    const rows = page.locator("table", { has: page.locator("caption", { hasText: "Aanroepen" }) }).locator("tbody tr");
    assert.equal(await rows.count(), 1, "one key was made; the second post was refused (400)");
    assert.deepEqual((await rows.first().locator("td").allTextContents()).slice(1, 5), ["app", "sleutel_aanmaken", "Eigenaar Acme BV", "200"]);
    await shot(page, "aanroeplog-gefilterd");
    await page.locator('input[name="status"]').fill("400");
    await page.getByRole("button", { name: "Log filteren" }).click();
    await page.waitForURL(/status=400/);
    assert.equal(await rows.count(), 2, "the refused posts (again, and without the token) are in the log too");
    // Paging: 60 calls of one request id are 50 on the first page and 10 on the next.
    await db.sql`insert into app_private.aanroepen (org_id, xid, door, operatie, status, verzoek_id)
                 select ${w.org}, '1'::xid8, 'rest', 'team', 200, 'veel-verzoeken' from generate_series(1, 60)`;
    await page.goto(`${base}/app/integraties?verzoek_id=veel-verzoeken`);
    assert.equal(await rows.count(), 50);
    await page.getByRole("link", { name: "Volgende pagina" }).click();
    await page.waitForURL(/pagina=2/);
    assert.equal(await rows.count(), 10);
    assert.equal(await page.getByRole("link", { name: "Volgende pagina" }).count(), 0);
    await page.getByRole("link", { name: "Vorige pagina" }).waitFor();
    const bad = await page.goto(`${base}/app/integraties?van=gisteren#aanroeplog`);
    assert.equal(bad!.status(), 400, "a filter that is no date is refused");
    await page.getByRole("alert").filter({ hasText: "van" }).waitFor();
  });

  it("after ten minutes a new secret asks for the password again", async () => {
    await db.sql`update app_private.app_sessies set wachtwoord_op = wachtwoord_op - interval '11 minutes' where org_id = ${w.org}`;
    await page.goto(`${base}/app/integraties`);
    const fields = await formFields(page, "/app/integraties/sleutels");
    const before = await keyCount();
    const refused = await post(owner, "/app/integraties/sleutels", fields);
    assert.equal(refused.status, 403);
    assert.equal(await keyCount(), before);
    await shot(page, "wachtwoord-opnieuw-gevraagd");
    await page.locator('form[action="/app/integraties/sleutels"]').getByLabel(/Je wachtwoord/).fill(PASSWORD);
    await page.getByRole("button", { name: "Nieuwe API-sleutel maken" }).click();
    assert.match((await page.locator("#geheim").textContent())!.trim(), /^koers_live_/);
  });

  it("refuses a form from another origin, and one without the CSRF token", async () => {
    const fields = await formFields(page, "/app/integraties/koppeling");
    const off: Record<string, string> = { ...fields, door: "rest", stand: "uit" };
    const foreign = await post(owner, "/app/integraties/koppeling", off, { origin: "https://evil.example" });
    assert.equal(foreign.status, 403);
    const refusedPage = await owner.newPage();
    await refusedPage.setContent(foreign.html);
    await shot(refusedPage, "formulier-van-andere-herkomst-geweigerd");
    await refusedPage.close();
    const crossSite = await post(owner, "/app/integraties/koppeling", off, { "sec-fetch-site": "cross-site" });
    assert.equal(crossSite.status, 403);
    const { csrf: _csrf, ...withoutToken } = off;
    const noToken = await post(owner, "/app/integraties/koppeling", withoutToken);
    assert.equal(noToken.status, 403);
    assert.deepEqual({ ...await door("rest") }, { aan: true, alleen_lezen: false }, "nothing changed");
    const logged = await db.sql`select status, fout_code from app_private.aanroepen
      where org_id = ${w.org} and operatie = 'koppeling_zetten' and status = 403`;
    assert.equal(logged.length, 3, "each refusal is in the call log");
    const sameSite = await post(owner, "/app/integraties/koppeling", off);
    assert.equal(sameSite.status, 303, "the same form from Koers's own page works");
    assert.deepEqual({ ...await door("rest") }, { aan: false, alleen_lezen: false });
  });

  it("switches a webhook off and on again", async () => {
    await page.goto(`${base}/app/integraties`);
    await page.getByRole("button", { name: "Boekhouding uitzetten" }).click();
    await page.waitForURL(/gedaan=webhook_uit/);
    assert.equal((await db.sql`select aan from app_private.webhooks where org_id = ${w.org} and naam = 'Boekhouding'`)[0]!.aan, false);
    await shot(page, "webhook-uit");
    await page.getByRole("button", { name: "Boekhouding aanzetten" }).click();
    await page.waitForURL(/gedaan=webhook_aan/);
    assert.equal((await db.sql`select aan from app_private.webhooks where org_id = ${w.org} and naam = 'Boekhouding'`)[0]!.aan, true);
    const log = await db.sql`select distinct operatie, user_id from app_private.aanroepen
      where org_id = ${w.org} and operatie in ('webhook_maken', 'webhook_testen', 'webhook_opnieuw', 'webhook_uit', 'webhook_aan')
      order by operatie`;
    assert.deepEqual(log.map((r) => [r.operatie, r.user_id]), ["webhook_aan", "webhook_maken", "webhook_opnieuw", "webhook_testen", "webhook_uit"]
      .map((o) => [o, w.members.eigenaar.user_id]), "every webhook action names the owner in the log");
  });

  it("shows the owner's notifications", async () => {
    await db.sql`insert into app.meldingen (org_id, user_id, tekst)
                 values (${w.org}, ${w.members.eigenaar.user_id}, 'Webhook Boekhouding is uitgezet na 15 mislukte afleveringen op rij.')`;
    await page.goto(`${base}/app/integraties?gedaan=`);
    await page.getByRole("cell", { name: "Webhook Boekhouding is uitgezet na 15 mislukte afleveringen op rij." }).waitFor();
  });

  it("lists the owner's AI assistants and disconnects one: its token stops working at once", async () => {
    const tokens = await signInByHand(base, await email(db.sql, w.members.eigenaar));
    const team = () => rawMcp(new URL("/mcp", base), { method: "tools/call", params: { name: "team", arguments: { org_id: w.org } } },
      { token: tokens.access_token });
    assert.equal((await team()).status, 200);
    await page.goto(`${base}/app/integraties#assistenten`);
    await shot(page, "ai-assistenten");
    await page.getByRole("button", { name: "Handmatig ontkoppelen" }).click();
    await page.waitForURL(/gedaan=assistent/);
    assert.equal((await team()).status, 401);
  });

  it("creates a warehouse login shown once, which reads rapportage over TCP; revoking it ends its session and its sign-in", async () => {
    const logins = async () => Number((await db.sql`select count(*) as n from app_private.warehouse_logins where org_id = ${w.org}`)[0]!.n);
    await page.goto(`${base}/app/integraties#warehouse`);
    const wh = page.locator("fieldset", { has: page.locator("legend", { hasText: /^Warehouse$/ }) });
    await wh.getByLabel("Aan", { exact: true }).check();
    await page.getByRole("button", { name: "Warehouse opslaan" }).click();
    await page.waitForURL(/gedaan=koppeling/);
    assert.deepEqual({ ...(await door("warehouse")) }, { aan: true, alleen_lezen: false });

    const before = await logins();
    // As for a key: the sign-in is older than ten minutes, so the form asks for the password.
    await db.sql`update app_private.app_sessies set wachtwoord_op = wachtwoord_op - interval '11 minutes' where org_id = ${w.org}`;
    await page.goto(`${base}/app/integraties#warehouse`);
    const create = page.locator('form[action="/app/integraties/warehouse"]');
    await create.getByLabel("Namens lid").selectOption(w.members.eigenaar.user_id);
    await create.getByLabel(/Verbindingen tegelijk/).fill("2");
    const stale = await post(owner, "/app/integraties/warehouse", await formFields(page, "/app/integraties/warehouse"));
    assert.equal(stale.status, 403, "no password, no login");
    const badLimit = await post(owner, "/app/integraties/warehouse", { ...(await formFields(page, "/app/integraties/warehouse")),
      wachtwoord: PASSWORD, limiet: "veel" });
    assert.equal(badLimit.status, 400);
    assert.match(badLimit.html, /De limiet is een geheel getal/);
    assert.equal(await logins(), before);
    await create.getByLabel(/Je wachtwoord/).fill(PASSWORD);
    const fields = await formFields(page, "/app/integraties/warehouse");
    await page.getByRole("button", { name: "Warehouse-login maken" }).click();
    const url = (await page.locator("#geheim").textContent())!.trim();
    const password = (await page.locator("#wachtwoord").textContent())!.trim();
    const u = new URL(url);
    assert.deepEqual([u.protocol, decodeURIComponent(u.password), u.hostname, u.pathname], ["postgresql:", password, "127.0.0.1",
      new URL(db.url).pathname], "the server and database the service's own connection reaches");
    assert.match(u.username, /^koers_wh_[0-9a-f]{12}$/);
    await shot(page, "warehouse-login-eenmalig-getoond");
    const [role] = await db.sql`select rolpassword, rolconnlimit from pg_authid where rolname = ${u.username}`;
    assert.match(role!.rolpassword, /^SCRAM-SHA-256\$4096:/, "the server holds only a SCRAM verifier");
    assert.equal(role!.rolconnlimit, 2, "the limit given");
    // A reload posts the same form again: refused, no second login, no password.
    const again = await post(owner, "/app/integraties/warehouse", fields);
    assert.equal(again.status, 409);
    assert.match(again.html, /al verstuurd/);
    assert.ok(!again.html.includes(password) && !again.html.includes("postgresql://"), "nothing shown the second time");
    assert.equal(await logins(), before + 1);

    // The tool's side: the URL connects over TCP (SCRAM) and reads a rapportage view as the owner.
    const open = new pg.Client({ connectionString: url });
    open.on("error", () => {}); // the server ends it on revoke
    await open.connect();
    const who = (await open.query("select org_id, gebruiker_user_id from rapportage.wie_ben_ik")).rows;
    assert.deepEqual(who, [{ org_id: w.org, gebruiker_user_id: w.members.eigenaar.user_id }]);
    assert.ok((await open.query("select * from rapportage.team")).rows.length > 0, "the team view has the organisation's members");

    await page.goto(`${base}/app/integraties#warehouse`);
    const row = page.locator("tr", { has: page.locator("code", { hasText: u.username }) });
    assert.deepEqual((await row.locator("td").allTextContents()).slice(0, 2), [u.username, "Eigenaar Acme BV"]);
    assert.equal((await row.locator("td").nth(4).textContent())!.trim(), "1 van 2", "connected now, of its limit");
    assert.notEqual((await row.locator("td").nth(3).textContent())!.trim(), "nooit", "last seen");
    assert.ok(!(await page.content()).includes(password), "the list never shows the password");
    await shot(page, "warehouse-logins");

    // Another organisation's login, or none, cannot be revoked from here.
    const strange = await post(owner, "/app/integraties/warehouse/intrekken",
      { ...(await formFields(page, "/app/integraties/warehouse/intrekken")), id: "00000000-0000-4000-8000-000000000000" });
    assert.equal(strange.status, 400);
    assert.match(strange.html, /hoort niet bij deze organisatie/);

    await page.getByRole("button", { name: `Warehouse-login ${u.username} intrekken` }).click();
    await page.waitForURL(/gedaan=warehouse_ingetrokken/);
    await shot(page, "warehouse-login-ingetrokken");
    await assert.rejects(open.query("select * from rapportage.wie_ben_ik"), "the open session's next query is refused");
    const fresh = new pg.Client({ connectionString: url });
    await assert.rejects(fresh.connect(), /password authentication failed|does not exist|not permitted to log in/, "no new session starts");
    assert.match((await row.locator("td").nth(4).textContent())!, /^ingetrokken /);

    const logged = await db.sql`select operatie, status, user_id from app_private.aanroepen
                                where org_id = ${w.org} and door = 'app' and operatie like 'warehouse%' order by tijdstip, id`;
    assert.deepEqual(logged.map((r) => [r.operatie, r.status, r.user_id]), [
      ["warehouse_aanmaken", 400, w.members.eigenaar.user_id], ["warehouse_aanmaken", 400, w.members.eigenaar.user_id],
      ["warehouse_aanmaken", 200, w.members.eigenaar.user_id], ["warehouse_aanmaken", 400, w.members.eigenaar.user_id],
      ["warehouse_intrekken", 400, w.members.eigenaar.user_id], ["warehouse_intrekken", 200, w.members.eigenaar.user_id]],
    "every action is in the call log with door app, the refused ones too (the reload with its code's status, as for a key)");
    assert.ok(!JSON.stringify(await db.sql`select parameters from app_private.aanroepen where org_id = ${w.org}`).includes(password));
  });

  it("a session after sign-out no longer counts", async () => {
    const stale = await cookieHeader(owner);
    await page.goto(`${base}/app/account`);
    await shot(page, "account");
    await page.getByRole("button", { name: "Afmelden", exact: true }).click();
    await page.waitForURL(/\/app\/aanmelden$/);
    const r = await fetch(`${base}/app/integraties`, { redirect: "manual", headers: { cookie: stale } });
    assert.equal(r.status, 303);
    assert.equal(r.headers.get("location"), "/app/aanmelden");
  });
});

describe("other people on the pages", () => {
  it("a member who is not the owner gets a 403 page on Integraties, and it is logged", async () => {
    const page = await signIn(await newContext(), "admin");
    assert.match(page.url(), /\/app\/account$/);
    const r = await page.goto(`${base}/app/integraties`);
    assert.equal(r!.status(), 403);
    await page.getByText("alleen voor een eigenaar").waitFor();
    await shot(page, "geen-eigenaar-403");
    const [log] = await db.sql`select door, status, fout_code from app_private.aanroepen
      where org_id = ${w.org} and operatie = 'integraties' order by tijdstip desc limit 1`;
    assert.deepEqual({ ...log }, { door: "app", status: 403, fout_code: "rol_mag_niet" });
  });

  it("a demoted member's session ends at once", async () => {
    const c = await newContext();
    const page = await signIn(c, "mt");
    await page.goto(`${base}/app/strategie`);
    await db.sql`select beheer.lid_wijzigen(${w.org}, ${w.members.mt.user_id}, _rol => 'lid')`;
    await page.goto(`${base}/app/strategie`);
    assert.match(page.url(), /\/app\/aanmelden$/);
    await db.sql`select beheer.lid_wijzigen(${w.org}, ${w.members.mt.user_id}, _rol => 'mt')`;
  });

  it("an MT member approves a strategy proposal made over REST", async () => {
    await db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', true, false)`;
    const proposal = await request(base, "POST", "/api/v1/strategie-bijwerken",
      { apiKey: w.members.mt.apiKey, body: { org_id: w.org, velden: { bhag: "Marktleider in Benelux", jaarthema: "Focus" } } });
    assert.equal(proposal.status, 200, JSON.stringify(proposal.body));
    const page = await signIn(await newContext(), "mt");
    await page.goto(`${base}/app/strategie`);
    await page.getByRole("cell", { name: "Marktleider in Benelux" }).waitFor();
    await shot(page, "strategievoorstel");
    await page.getByRole("button", { name: "Voorstel goedkeuren" }).click();
    await page.waitForURL(/gedaan=goedkeuren/);
    const [canvas] = await db.sql`select bhag, jaarthema from app.strategie where org_id = ${w.org}`;
    assert.deepEqual({ ...canvas }, { bhag: "Marktleider in Benelux", jaarthema: "Focus" });
    const [log] = await db.sql`select door, user_id from app_private.aanroepen where org_id = ${w.org} and operatie = 'strategie_goedkeuren'`;
    assert.deepEqual({ ...log }, { door: "app", user_id: w.members.mt.user_id });
    await shot(page, "strategievoorstel-goedgekeurd");
  });

  it("a coach establishes a session note made over MCP", async () => {
    const tokens = await signInByHand(base, await email(db.sql, w.members.coach));
    const args = { org_id: w.org, datum: "2026-05-13", titel: "Kwartaalstart", soort: "kwartaal", samenvatting: "Q2 gepland" };
    const call = (a: Record<string, unknown>) => rawMcp(new URL("/mcp", base),
      { method: "tools/call", params: { name: "sessienotitie_schrijven", arguments: a } }, { token: tokens.access_token });
    const first = await call(args);
    const code = first.body.result.structuredContent.bevestigcode;
    assert.ok(code, JSON.stringify(first.body));
    const second = await call({ ...args, bevestigcode: code });
    assert.equal(second.body.result.structuredContent.uitgevoerd, true, JSON.stringify(second.body));
    const page = await signIn(await newContext(), "coach");
    await page.goto(`${base}/app/sessienotities`);
    await shot(page, "conceptnotities");
    await page.getByRole("button", { name: "Kwartaalstart vaststellen" }).click();
    await page.waitForURL(/gedaan=vastgesteld/);
    const [n] = await db.sql`select status from app.sessienotities where org_id = ${w.org} and titel = 'Kwartaalstart'`;
    assert.equal(n!.status, "vastgesteld");
    await shot(page, "notitie-vastgesteld");
  });

  it("on the account page a person changes their password (the old one asked) and signs out their other sessions", async () => {
    const a = await newContext();
    const other = await newContext();
    const page = await signIn(a, "admin");
    await signIn(other, "admin");
    await page.goto(`${base}/app/account`);
    await page.getByLabel("Huidig wachtwoord").fill("niet het wachtwoord");
    await page.getByLabel("Nieuw wachtwoord (minstens 10 tekens)").fill("een heel nieuw wachtwoord");
    await page.getByLabel("Nieuw wachtwoord nog eens").fill("een heel nieuw wachtwoord");
    await page.getByRole("button", { name: "Wachtwoord wijzigen" }).click();
    await page.getByText("Je huidige wachtwoord klopt niet.").waitFor();
    await shot(page, "account-oud-wachtwoord-fout");
    await page.getByLabel("Huidig wachtwoord").fill(PASSWORD);
    await page.getByLabel("Nieuw wachtwoord (minstens 10 tekens)").fill("een heel nieuw wachtwoord");
    await page.getByLabel("Nieuw wachtwoord nog eens").fill("een heel nieuw wachtwoord");
    await page.getByRole("button", { name: "Wachtwoord wijzigen" }).click();
    await page.waitForURL(/gedaan=wachtwoord/);
    const [log] = await db.sql`select door, status from app_private.aanroepen where org_id = ${w.org} and operatie = 'wachtwoord_wijzigen'
                               and user_id = ${w.members.admin.user_id} order by tijdstip`;
    assert.deepEqual({ ...log }, { door: "app", status: 400 }, "the refused attempt is logged first");
    const signedIn = await fetch(`${base}/app/account`, { redirect: "manual", headers: { cookie: await cookieHeader(other) } });
    assert.equal(signedIn.status, 200, "the other browser is still signed in");
    await page.getByRole("button", { name: "Andere sessies afmelden" }).click();
    await page.waitForURL(/gedaan=sessies/);
    await shot(page, "andere-sessies-afgemeld");
    const gone = await fetch(`${base}/app/account`, { redirect: "manual", headers: { cookie: await cookieHeader(other) } });
    assert.equal(gone.status, 303, "the other browser's session has ended");
    assert.equal((await fetch(`${base}/app/account`, { redirect: "manual", headers: { cookie: await cookieHeader(a) } })).status, 200,
      "this one stays");
    const fresh = await fetch(`${base}/app/aanmelden`, { method: "POST", redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
      body: new URLSearchParams({ email: await email(db.sql, w.members.admin), wachtwoord: "een heel nieuw wachtwoord" }) });
    assert.equal(fresh.status, 303, "the new password signs in");
  });

  it("a person in two organisations chooses one when signing in", async () => {
    const other = await makeWorld(db.sql, "Ander BV");
    const address = await email(db.sql, w.members.coach);
    await db.sql`select beheer.lid_aanmaken(${other.org}, 'Coach Acme BV', ${address}, 'eigenaar')`;
    const signInAs = (extra: Record<string, string>) => fetch(`${base}/app/aanmelden`, { method: "POST", redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
      body: new URLSearchParams({ email: address, wachtwoord: PASSWORD, ...extra }) });
    const choose = await signInAs({});
    assert.equal(choose.status, 200);
    const html = await choose.text();
    assert.match(html, /<label>Organisatie <select name="organisatie" required>/);
    assert.match(html, /Ander BV/);
    assert.equal(choose.headers.get("set-cookie"), null, "no session before the choice");
    const chosen = await signInAs({ organisatie: other.org });
    assert.equal(chosen.status, 303);
    assert.equal(chosen.headers.get("location"), "/app/integraties", "an owner there");
    const [s] = await db.sql`select org_id, rol from app_private.app_sessies where user_id = ${w.members.coach.user_id}
                             order by aangemaakt_op desc limit 1`;
    assert.deepEqual({ ...s }, { org_id: other.org, rol: "eigenaar" });
  });

  it("a post the pages cannot read answers a 4xx page, never 500", async () => {
    const json = await fetch(`${base}/app/aanmelden`, { method: "POST", headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify({ email: "x@y.test", wachtwoord: "z" }) });
    assert.equal(json.status, 415);
    assert.match(await json.text(), /niet goed verstuurd/);
    const big = await fetch(`${base}/app/aanmelden`, { method: "POST", body: `email=${"a".repeat(70 * 1024)}`,
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base } });
    assert.equal(big.status, 413);
    // A NUL character cannot be stored: refused naming the field, before it reaches the database.
    const nul = await fetch(`${base}/app/aanmelden`, { method: "POST", body: "email=a%00b%40c.test&wachtwoord=z",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base } });
    assert.equal(nul.status, 400);
    assert.match(await nul.text(), /email/);
  });

  it("ten wrong passwords for an address block its sign-in for a while", async () => {
    const attempt = (wachtwoord: string) => fetch(`${base}/app/aanmelden`, { method: "POST", redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
      body: new URLSearchParams({ email: "lid@acmebv.test", wachtwoord }) });
    for (let i = 0; i < 10; i++) assert.equal((await attempt(`fout ${i}`)).status, 200);
    const blocked = await attempt(PASSWORD);
    assert.equal(blocked.status, 429, "even the right password waits");
    assert.equal(blocked.headers.get("set-cookie"), null);
  });

  it("the doors' refusals send the owner to this page's address", async () => {
    await db.sql`select beheer.secties_zetten(${w.org}, ${["kpis"]}::text[], false)`;
    const section = await request(base, "GET", "/api/v1/kpi-scorebord", { apiKey: w.members.eigenaar.apiKey, query: { org_id: w.org } });
    assert.equal(section.body.fout.code, "onderdeel_uit");
    assert.equal(section.body.fout.bericht, `Het onderdeel kpis is niet vrijgegeven. Een eigenaar geeft het vrij op ${base}/app/integraties.`);
    await db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', false, false)`;
    const off = await request(base, "GET", "/api/v1/team", { apiKey: w.members.eigenaar.apiKey, query: { org_id: w.org } });
    assert.equal(off.body.fout.code, "koppeling_uit");
    assert.equal(off.body.fout.bericht, `De koppeling staat uit voor deze organisatie. Een eigenaar zet haar aan op ${base}/app/integraties.`);
  });

  it("every cookie the pages set is HttpOnly and SameSite=Strict, and not Secure over plain http", async () => {
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(setCookies.length >= 4, `cookies were set: ${setCookies.length}`);
    for (const c of setCookies) {
      assert.match(c.value, /; HttpOnly/, c.url);
      assert.match(c.value, /; SameSite=Strict/, c.url);
      assert.doesNotMatch(c.value, /; Secure/, c.url);
    }
    // Behind https (KOERS_PUBLIC_URL https://...) the cookie is Secure and host-only.
    assert.match(sessionCookie("x", true), /^__Host-koers_app=x; Path=\/; HttpOnly; SameSite=Strict; Secure$/);
  });
});

describe("the service as src/server.ts starts it, behind https (KOERS_PUBLIC_URL)", () => {
  it("serves the pages with a Secure cookie, and the doors' refusals name {KOERS_PUBLIC_URL}/app/integraties", async () => {
    const service = await start(readConfig({ DATABASE_URL: db.url, PORT: "0", KOERS_WORKER: "uit",
      KOERS_PUBLIC_URL: "https://koers.example.com" }));
    try {
      const address = service.address.replace("0.0.0.0", "127.0.0.1");
      const signedIn = await fetch(`${address}/app/aanmelden`, { method: "POST", redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://koers.example.com" },
        body: new URLSearchParams({ email: await email(db.sql, w.members.eigenaar), wachtwoord: PASSWORD }) });
      assert.equal(signedIn.status, 303);
      const plain = await fetch(`${address}/app/aanmelden`, { method: "POST", redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://koers.example.com" },
        body: new URLSearchParams({ email: await email(db.sql, w.members.eigenaar), wachtwoord: PASSWORD }) });
      assert.equal(plain.status, 403, "a plain-http page in front of an https Koers may not post");
      assert.match(signedIn.headers.get("set-cookie") ?? "", /^__Host-koers_app=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Secure$/);
      await db.sql`select beheer.koppeling_zetten(${w.org}, 'rest', false, false)`;
      const off = await request(address, "GET", "/api/v1/team", { apiKey: w.members.eigenaar.apiKey, query: { org_id: w.org } });
      assert.equal(off.body.fout.bericht,
        "De koppeling staat uit voor deze organisatie. Een eigenaar zet haar aan op https://koers.example.com/app/integraties.");
    } finally {
      await service.stop();
    }
  });
});
