// Webhooks end to end: made with the CLI, events from the REST door, the CLI and SQL, delivered
// by a real `koers worker` process to a real HTTPS receiver on loopback (its own certificate,
// trusted through NODE_EXTRA_CA_CERTS), every header, the body and the signature checked, the
// signature with Stripe's verifier as an independent one.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import https from "node:https";
import path from "node:path";
import Stripe from "stripe";
import { verifyWebhook, WebhookRejected } from "../docs/verify-webhook.ts";
import { freePort } from "./cluster.ts";
import { makeWorld, startKoers, testDatabase, writeTwoStep, type Koers, type TestDb, type World } from "./helpers.ts";
import {
  cliJson, koersCli, makeCertificate, ok, startReceiver, startWorkerProcess, status, waitUntil, UUID,
  type Certificate, type Received, type Receiver, type WorkerProcess,
} from "./webhooks-support.ts";

// A quarter KPI's month July has passed (kpi.rood); the worker runs on real time.
const NOW = "2026-07-23T22:00:00Z";
const stripe = new Stripe("sk_test_unused");

let db: TestDb, koers: Koers, w: World, certificate: Certificate, receiver: Receiver, worker: WorkerProcess;
let all: { id: string; secret: string }, failing: { id: string; secret: string };
let team: string;

before(async () => {
  db = await testDatabase();
  koers = await startKoers(db.url, { now: NOW });
  w = await makeWorld(db.sql);
  [{ id: team }] = await db.sql`insert into app.teams (org_id, naam) values (${w.org}, 'Verkoop') returning id` as unknown as [{ id: string }];
  certificate = makeCertificate();
  receiver = await startReceiver(certificate);
  receiver.answer = (r, res) => (r.path.startsWith("/fouten") ? status(500) : ok)(r, res);
  worker = await startWorkerProcess(db.url, certificate);
});
after(async () => {
  await worker?.stop();
  await receiver?.close();
  certificate?.remove();
  await koers?.stop();
  await db?.drop();
});

const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => koersCli(db.url, args, { KOERS_WEBHOOK_PRIVATE: "aan", ...env });
const at = (path: string) => receiver.received.filter((r) => r.path === path);
async function messageFor(webhook: string, event: string) {
  const [m] = await db.sql`select id, status from app_private.webhook_berichten where webhook_id = ${webhook} and gebeurtenis_id = ${event}`;
  return m;
}
async function waitForMessage(message: string, n = 1) {
  await waitUntil(async () => {
    const [{ c }] = await db.sql`select count(*)::int as c from app_private.webhook_afleveringen
      where bericht_id = ${message} and werker_slot is null` as unknown as [{ c: number }];
    return c >= n;
  }, 20_000, `${n} recorded deliveries of ${message}`);
}
/** The failing webhook's retries are the retry test's subject; here they would only add noise. */
async function noRetries() {
  await db.sql`update app_private.webhook_berichten set status = 'mislukt', volgende_poging_op = null
               where webhook_id = ${failing.id} and status = 'wacht'`;
}
async function waitForDeliveries(webhook: string, n: number) {
  await waitUntil(async () => {
    const [{ c }] = await db.sql`select count(*)::int as c from app_private.webhook_afleveringen a
      join app_private.webhook_berichten b on b.org_id = a.org_id and b.id = a.bericht_id
      where b.webhook_id = ${webhook} and a.werker_slot is null` as unknown as [{ c: number }];
    return c >= n;
  }, 20_000, `${n} recorded deliveries`);
}

/** Every header, the body's shape and the signature of one request (Stripe's verifier). */
function checkDelivery(r: Received, secret: string) {
  assert.equal(r.method, "POST");
  assert.equal(r.headers["content-type"], "application/json");
  assert.equal(r.headers["x-service-event"], r.json.gebeurtenis);
  assert.match(String(r.headers["x-service-delivery"]), UUID);
  const signature = String(r.headers["x-service-signature"]);
  assert.match(signature, /^t=\d+,v1=[0-9a-f]{64}$/);
  const t = Number(/^t=(\d+)/.exec(signature)![1]);
  assert.ok(Math.abs(t - Date.now() / 1000) < 60, `t=${t} is now`);
  const event = stripe.webhooks.constructEvent(r.body, signature, secret);
  assert.deepEqual(event, r.json);
  assert.throws(() => stripe.webhooks.constructEvent(r.body.replace(r.json.id, crypto.randomUUID()), signature, secret),
    /No signatures found matching/);
  assert.throws(() => stripe.webhooks.constructEvent(r.body, signature, `${secret}x`), /No signatures found matching/);
  // The example for receivers (docs/verify-webhook.ts) agrees, and refuses a t 300 s off.
  assert.deepEqual(verifyWebhook(r.body, signature, secret), r.json);
  assert.deepEqual(verifyWebhook(r.body, signature, secret, t + 300), r.json);
  assert.throws(() => verifyWebhook(r.body, signature, secret, t + 301), WebhookRejected);
  assert.throws(() => verifyWebhook(r.body, signature, secret, t - 301), WebhookRejected);
  assert.throws(() => verifyWebhook(`${r.body} `, signature, secret), WebhookRejected);
  assert.deepEqual(Object.keys(r.json), ["id", "gebeurtenis", "tijdstip", "organisatie_id", "gegevens"]);
  assert.match(r.json.id, UUID);
  assert.match(r.json.tijdstip, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(r.json.organisatie_id, w.org);
}

describe("webhooks", () => {
  it("koers webhook maken: an owner's webhook, the signing secret printed once and stored nowhere else", async () => {
    const text = await cli(["webhook", "maken", "--org", w.org, "--naam", "Alles", "--url", receiver.url("/alles"),
      "--gebeurtenissen", "taak.aangemaakt,taak.gewijzigd,taak.klaar,prioriteit.aangemaakt,prioriteit.afgerond,kpi.rood,reflectie.ingediend"]);
    assert.equal(text.code, 0, text.stderr);
    const m = /webhook created: Alles \(id ([0-9a-f-]{36})\)[^\n]*\nSigning secret \(shown once, store it now\):\n(koers_whsec_[A-Za-z0-9_-]{43})\n$/.exec(text.stdout);
    assert.ok(m, text.stdout);
    all = { id: m[1]!, secret: m[2]! };
    const json = await cliJson(db.url, ["webhook", "maken", "--org", w.org, "--naam", "Fouten", "--url", receiver.url("/fouten"),
      "--gebeurtenissen", "prioriteit.afgerond", "--user", w.members.eigenaar.user_id], { KOERS_WEBHOOK_PRIVATE: "aan" });
    assert.match(json.geheim, /^koers_whsec_[A-Za-z0-9_-]{43}$/);
    assert.notEqual(json.geheim, all.secret);
    failing = { id: json.id, secret: json.geheim };
    assert.deepEqual([json.naam, json.url, json.gebeurtenissen, json.aan, json.aangemaakt_door],
      ["Fouten", receiver.url("/fouten"), ["prioriteit.afgerond"], true, w.members.eigenaar.user_id]);

    const list = await koersCli(db.url, ["webhook", "lijst", "--org", w.org, "--json"]);
    assert.equal(list.code, 0);
    assert.deepEqual(JSON.parse(list.stdout).map((x: { naam: string }) => x.naam), ["Alles", "Fouten"]);
    assert.ok(!list.stdout.includes("whsec") && !list.stdout.includes("geheim"), "the list never shows a secret");
    const [log] = await db.sql`select door, operatie, user_id, parameters from app_private.aanroepen
                               where org_id = ${w.org} and operatie = 'webhook_maken' order by tijdstip limit 1`;
    assert.deepEqual([log!.door, log!.user_id, log!.parameters.host], ["app", w.members.eigenaar.user_id, "localhost"]);
    assert.ok(!JSON.stringify(log!.parameters).includes("/alles"), "the address's path is not logged");
  });

  it("only an owner makes a webhook; bad input is refused with a clear message", async () => {
    const refusals: [string[], number, RegExp][] = [
      [["--user", w.members.admin.user_id], 1, /Alleen een eigenaar/],
      [["--gebeurtenissen", "taak.klaar,taak.weg"], 1, /Onbekende gebeurtenis taak.weg/],
      [["--gebeurtenissen", "webhook.test"], 1, /Onbekende gebeurtenis webhook.test/],
      [["--naam", " "], 2, /--naam is required/],
      [["--url", "https://"], 1, /geen geldige URL/],
    ];
    for (const [extra, code, message] of refusals) {
      const args = ["webhook", "maken", "--org", w.org, "--naam", "X", "--url", receiver.url(), "--gebeurtenissen", "taak.klaar"];
      for (let i = 0; i < extra.length; i += 2) {
        const at = args.indexOf(extra[i]!);
        if (at >= 0) args[at + 1] = extra[i + 1]!; else args.push(extra[i]!, extra[i + 1]!);
      }
      const r = await cli(args);
      assert.equal(r.code, code, `${extra.join(" ")}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, message);
    }
    // Without --user: the organisation's only owner; with two owners, say which; with none, no.
    await db.sql`select beheer.lid_aanmaken(${w.org}, 'Tweede Eigenaar', 'tweede@acme.test', 'eigenaar')`;
    const two = await cli(["webhook", "maken", "--org", w.org, "--naam", "X", "--url", receiver.url(), "--gebeurtenissen", "taak.klaar"]);
    assert.deepEqual([two.code, /meerdere eigenaren; zeg met --user/.test(two.stderr)], [1, true], two.stderr);
    const [{ r: lonely }] = await db.sql`select beheer.org_aanmaken('Zonder Eigenaar BV') as r` as unknown as [{ r: { org_id: string } }];
    await db.sql`select beheer.lid_aanmaken(${lonely.org_id}, 'Alleen Lid', 'lid@zonder.test', 'lid')`;
    const none = await cli(["webhook", "maken", "--org", lonely.org_id, "--naam", "X", "--url", receiver.url(), "--gebeurtenissen", "taak.klaar"]);
    assert.deepEqual([none.code, /geen eigenaar/.test(none.stderr)], [1, true], none.stderr);
    const [{ c }] = await db.sql`select count(*)::int as c from app_private.webhooks` as unknown as [{ c: number }];
    assert.equal(c, 2);
    assert.equal((await cli(["webhook", "lijst"])).code, 2);
    assert.equal((await cli(["webhook", "test", "--id", "nope"])).code, 2);
    const unknown = await cli(["webhook", "test", "--id", "00000000-0000-0000-0000-000000000000"]);
    assert.deepEqual([unknown.code, /Webhook 00000000-0000-0000-0000-000000000000 bestaat niet/.test(unknown.stderr)], [1, true]);
  });

  it("delivers every event kind, signed, carrying titles, statuses and ids only; private-project tasks never", async () => {
    const { lid, mt } = w.members;
    // prioriteit.aangemaakt, with a description that must not be sent
    const p = await writeTwoStep(koers.baseUrl, "/api/v1/prioriteit-aanmaken", lid.apiKey,
      { org_id: w.org, titel: "Tien nieuwe klanten", soort: "rock", eigenaar_user_id: lid.user_id, omschrijving: "Geheime omschrijving" });
    assert.equal(p.confirmed.status, 200, JSON.stringify(p.confirmed.body));
    const priority = p.confirmed.body.prioriteit.id;
    await db.sql`update app.prioriteiten set team_id = ${team} where id = ${priority}`;
    // taak.aangemaakt, taak.gewijzigd (REST), taak.klaar (CLI), prioriteit.afgerond (CLI)
    const t = await writeTwoStep(koers.baseUrl, "/api/v1/taak-toevoegen", lid.apiKey,
      { org_id: w.org, prioriteit_id: priority, omschrijving: "Offerte sturen", eigenaar_user_id: lid.user_id });
    const task = t.confirmed.body.taak;
    await db.sql`update app.taken set toelichting = 'Geheime toelichting' where id = ${task.id}`;
    const changed = await writeTwoStep(koers.baseUrl, "/api/v1/taak-bijwerken", lid.apiKey,
      { org_id: w.org, taak_id: task.id, deadline: "2026-08-01" });
    assert.equal(changed.confirmed.status, 200);
    assert.equal((await cli(["taak", "klaar", "--org", w.org, "--nummer", String(task.nummer)])).code, 0);
    assert.equal((await cli(["prioriteit", "afronden", "--org", w.org, "--id", priority])).code, 0);
    // kpi.rood, with an explanation and figures that must not be sent
    const k = await writeTwoStep(koers.baseUrl, "/api/v1/kpi-aanmaken", mt.apiKey,
      { org_id: w.org, naam: "Omzet", eigenaar_user_id: lid.user_id, meetsoort: "teller", cadans: "month" });
    const kpi = k.confirmed.body.kpi.id;
    await db.sql`insert into app.kpi_kwartaaldoelen (org_id, kpi_id, kwartaal_start, doel) values (${w.org}, ${kpi}, '2026-07-01', 400)`;
    const red = await writeTwoStep(koers.baseUrl, "/api/v1/kpi-meting-invoeren", lid.apiKey,
      { org_id: w.org, kpi_id: kpi, waarde: 79, toelichting: "Geheime vakantie" });
    assert.equal(red.confirmed.status, 200, JSON.stringify(red.confirmed.body));
    // reflectie.ingediend (its operation comes later; the trigger is there)
    const [reflection] = await db.sql`insert into app.reflecties (org_id, user_id, soort, periode, goed, focus, energie, ingediend_op)
      values (${w.org}, ${lid.user_id}, 'maand', '2026-06', 'Geheim goed', 'Geheime focus', 7, now()) returning id`;
    // a task in a private project: recorded, never sent
    const project = await writeTwoStep(koers.baseUrl, "/api/v1/project-aanmaken", mt.apiKey,
      { org_id: w.org, titel: "Overname", eigenaar_user_id: mt.user_id });
    await db.sql`update app.projecten set besloten = true where id = ${project.confirmed.body.project.id}`;
    const secret = await writeTwoStep(koers.baseUrl, "/api/v1/taak-toevoegen", mt.apiKey,
      { org_id: w.org, project_id: project.confirmed.body.project.id, omschrijving: "Due diligence" });
    assert.equal(secret.confirmed.status, 200);
    // webhook.test (CLI)
    const test = await cliJson(db.url, ["webhook", "test", "--id", all.id]);

    await waitUntil(() => at("/alles").length >= 8, 20_000, "eight deliveries");
    await waitForDeliveries(all.id, 8);
    const got = at("/alles");
    assert.equal(got.length, 8);
    for (const r of got) checkDelivery(r, all.secret);
    assert.equal(new Set(got.map((r) => r.headers["x-service-delivery"])).size, 8, "a new delivery id each");
    assert.equal(new Set(got.map((r) => r.json.id)).size, 8, "a message id each");

    const byKind = (kind: string) => got.find((r) => r.json.gebeurtenis === kind)!.json.gegevens;
    const teamField = { id: team, naam: "Verkoop" };
    const taskPart = (extra: object) => ({ taak: { id: task.id, nummer: task.nummer, titel: "Offerte sturen", klaar: false,
      status: "open", deadline: null, eigenaar_id: lid.user_id, ...extra },
      onderdeel: { id: priority, titel: "Tien nieuwe klanten", soort: "prioriteit", team: teamField } });
    assert.deepEqual(byKind("taak.aangemaakt"), taskPart({}));
    assert.deepEqual(byKind("taak.gewijzigd"), taskPart({ deadline: "2026-08-01" }));
    assert.deepEqual(byKind("taak.klaar"), taskPart({ deadline: "2026-08-01", klaar: true, status: "klaar" }));
    const priorityPart = { id: priority, titel: "Tien nieuwe klanten", soort: "rock", kwartaal: "Q3-2026", deadline: "2026-09-30",
      eigenaar_id: lid.user_id };
    assert.deepEqual(byKind("prioriteit.aangemaakt"), { prioriteit: { ...priorityPart, afgerond: false }, team: null });
    assert.deepEqual(byKind("prioriteit.afgerond"), { prioriteit: { ...priorityPart, afgerond: true }, team: teamField });
    assert.deepEqual(byKind("kpi.rood"), { kpi: { id: kpi, naam: "Omzet", eigenaar_id: lid.user_id, meetsoort: "teller", cadans: "month" },
      periode: "2026-07", kwartaal: "Q3-2026", stoplicht: "achter", team: null });
    assert.deepEqual(byKind("reflectie.ingediend"), { reflectie: { id: reflection!.id, user_id: lid.user_id, soort: "maand", periode: "2026-06" } });
    assert.deepEqual(byKind("webhook.test"), { webhook: { id: all.id, naam: "Alles" } });
    for (const r of got) assert.doesNotMatch(r.body, /Geheim|Due diligence|"waarde"|"toelichting"|"omschrijving"/);

    // The message ids are the stored messages'; the delivery ids the stored attempts'.
    for (const r of got) {
      const [a] = await db.sql`select b.webhook_id, a.id, a.poging, a.status_code, a.fout from app_private.webhook_afleveringen a
        join app_private.webhook_berichten b on b.org_id = a.org_id and b.id = a.bericht_id where b.id = ${r.json.id}`;
      assert.deepEqual([a!.webhook_id, a!.id, a!.poging, a!.status_code, a!.fout], [all.id, r.headers["x-service-delivery"], 1, 200, null]);
    }
    assert.equal(got.find((r) => r.json.gebeurtenis === "webhook.test")!.json.id, test.bericht_id);
    const [privateEvent] = await db.sql`select id, besloten from app.gebeurtenissen where onderwerp_id = ${secret.confirmed.body.taak.id}`;
    assert.equal(privateEvent!.besloten, true);
    assert.equal(await messageFor(all.id, privateEvent!.id), undefined, "no message for a private-project task");
    // The failing webhook got prioriteit.afgerond too (and failed): deliveries are per webhook.
    await waitForDeliveries(failing.id, 1);
    await noRetries();
    assert.equal(at("/fouten")[0]!.json.gebeurtenis, "prioriteit.afgerond");
    checkDelivery(at("/fouten")[0]!, failing.secret);
  });

  it("an event the change merged or removed before its commit is not sent", async () => {
    const before = at("/alles").length;
    const [task] = await db.sql`insert into app.taken (org_id, omschrijving) values (${w.org}, 'Bellen') returning id, nummer`;
    await waitUntil(() => at("/alles").length >= before + 1, 15_000, "taak.aangemaakt");
    // One transaction: a new deadline (taak.gewijzigd), then ticked off (taak.klaar replaces it).
    await db.sql.begin(async (tx) => {
      await tx`update app.taken set deadline = '2026-09-01' where id = ${task!.id}`;
      const [g] = await tx`select count(*)::int as c from app.gebeurtenissen where onderwerp_id = ${task!.id} and soort = 'taak.gewijzigd'`;
      assert.equal(g!.c, 1, "recorded within the transaction");
      await tx`update app.taken set stand = 'voltooid' where id = ${task!.id}`;
    });
    await waitUntil(() => at("/alles").length >= before + 2, 15_000, "taak.klaar");
    await waitForDeliveries(all.id, 10);
    const kinds = at("/alles").slice(before).filter((r) => r.json.gegevens.taak?.id === task!.id).map((r) => r.json.gebeurtenis);
    assert.deepEqual(kinds, ["taak.aangemaakt", "taak.klaar"]);
    const [{ c }] = await db.sql`select count(*)::int as c from app_private.webhook_berichten b join app.gebeurtenissen g
      on g.org_id = b.org_id and g.id = b.gebeurtenis_id where g.onderwerp_id = ${task!.id} and g.soort = 'taak.gewijzigd'` as unknown as [{ c: number }];
    assert.equal(c, 0);
  });

  it("koers webhook opnieuw sends a message again: the same id, a new delivery id", async () => {
    const first = at("/alles").find((r) => r.json.gebeurtenis === "webhook.test")!;
    const before = at("/alles").length;
    const r = await cliJson(db.url, ["webhook", "opnieuw", "--id", all.id, "--bericht", first.json.id]);
    assert.deepEqual([r.bericht_id, r.status], [first.json.id, "wacht"]);
    await waitUntil(() => at("/alles").length > before, 15_000, "the message again");
    const again = at("/alles").at(-1);
    assert.equal(at("/alles").length, before + 1);
    assert.equal(again!.json.id, first.json.id);
    assert.equal(again!.body, first.body, "the same message, byte for byte");
    assert.notEqual(again!.headers["x-service-delivery"], first.headers["x-service-delivery"]);
    checkDelivery(again!, all.secret);
    await waitForDeliveries(all.id, 11);
    const log = await cliJson(db.url, ["webhook", "afleveringen", "--id", all.id]);
    assert.deepEqual(log.filter((a: { bericht_id: string }) => a.bericht_id === first.json.id)
      .map((a: { aflevering_id: string; poging: number; status_code: number; gebeurtenis: string }) =>
        [a.aflevering_id, a.poging, a.status_code, a.gebeurtenis]),
      [[again!.headers["x-service-delivery"], 2, 200, "webhook.test"], [first.headers["x-service-delivery"], 1, 200, "webhook.test"]]);
    assert.equal(log[0].aflevering_id, again!.headers["x-service-delivery"], "newest first");
    const other = await cli(["webhook", "opnieuw", "--id", failing.id, "--bericht", first.json.id]);
    assert.deepEqual([other.code, /hoort niet bij deze webhook/.test(other.stderr)], [1, true]);
  });

  it("a redirect is a failure and is not followed; so is a 5xx", async () => {
    receiver.answer = (r, res) => {
      if (r.path === "/fouten") { res.writeHead(302, { location: receiver.url("/elders") }); res.end(); } else ok(r, res);
    };
    const r = await cliJson(db.url, ["webhook", "test", "--id", failing.id]);
    await waitForMessage(r.bericht_id);
    const [a] = await db.sql`select a.status_code, a.fout from app_private.webhook_afleveringen a where a.bericht_id = ${r.bericht_id}`;
    assert.deepEqual([a!.status_code, a!.fout], [302, "doorverwijzing (HTTP 302) wordt niet gevolgd"]);
    assert.equal(at("/elders").length, 0, "the redirect was not followed");
    const [m] = await db.sql`select status, mislukte_pogingen, volgende_poging_op > now() as later from app_private.webhook_berichten where id = ${r.bericht_id}`;
    assert.deepEqual([m!.status, m!.mislukte_pogingen, m!.later], ["wacht", 1, true], "a retry is planned");
    await noRetries();

    receiver.answer = (r, res) => (r.path === "/fouten" ? status(503) : ok)(r, res);
    const s = await cliJson(db.url, ["webhook", "test", "--id", failing.id]);
    await waitForMessage(s.bericht_id);
    await noRetries();
    const [b] = await db.sql`select status_code, fout from app_private.webhook_afleveringen where bericht_id = ${s.bericht_id}`;
    assert.deepEqual([b!.status_code, b!.fout], [503, "HTTP 503"]);
    const [hook] = await db.sql`select opeenvolgende_fouten, aan from app_private.webhooks where id = ${failing.id}`;
    assert.deepEqual([hook!.opeenvolgende_fouten, hook!.aan], [3, true]);
  });

  it("an answer that does not end is cut off at ten seconds", async () => {
    const timers: NodeJS.Timeout[] = [];
    receiver.answer = (r, res) => {
      if (r.path !== "/fouten") return ok(r, res);
      res.writeHead(200, { "content-type": "text/plain" });
      const t = setInterval(() => res.write("."), 200);
      timers.push(t);
      res.on("close", () => clearInterval(t));
    };
    try {
      const r = await cliJson(db.url, ["webhook", "test", "--id", failing.id]);
      await waitForMessage(r.bericht_id);
      await noRetries();
      const [a] = await db.sql`select status_code, fout, duur_ms::float as duur from app_private.webhook_afleveringen where bericht_id = ${r.bericht_id}`;
      assert.deepEqual([a!.status_code, a!.fout], [200, "geen volledig antwoord binnen 10 s"]);
      assert.ok(a!.duur >= 10_000 && a!.duur < 11_500, `cut off at ${a!.duur} ms`);
    } finally {
      timers.forEach(clearInterval);
    }
  });

  it("switched off, a webhook gets no new messages and refuses test and opnieuw; switched on, its count starts again", async () => {
    receiver.answer = ok;
    const off = await cliJson(db.url, ["webhook", "uit", "--id", failing.id]);
    assert.deepEqual([off.aan, off.opeenvolgende_fouten], [false, 4]);
    const before = at("/alles").length;
    const [p] = await db.sql`insert into app.prioriteiten (org_id, soort, titel, eigenaar_user_id, kwartaal_start)
      values (${w.org}, 'rock', 'Afronden', ${w.members.lid.user_id}, '2026-07-01') returning id`;
    assert.equal((await cli(["prioriteit", "afronden", "--org", w.org, "--id", p!.id])).code, 0);
    await waitUntil(() => at("/alles").length >= before + 2, 15_000, "the events at the webhook that is on");
    assert.ok(at("/alles").slice(before).some((r) => r.json.gebeurtenis === "prioriteit.afgerond" && r.json.gegevens.prioriteit.id === p!.id));
    const [{ c }] = await db.sql`select count(*)::int as c from app_private.webhook_berichten b join app.gebeurtenissen g
      on g.org_id = b.org_id and g.id = b.gebeurtenis_id where b.webhook_id = ${failing.id} and g.onderwerp_id = ${p!.id}` as unknown as [{ c: number }];
    assert.equal(c, 0);
    for (const args of [["webhook", "test", "--id", failing.id], ["webhook", "opnieuw", "--id", failing.id, "--bericht", all.id]]) {
      const r = await cli(args);
      assert.deepEqual([r.code, /staat uit/.test(r.stderr)], [1, true], r.stderr);
    }
    const on = await cliJson(db.url, ["webhook", "aan", "--id", failing.id]);
    assert.deepEqual([on.aan, on.opeenvolgende_fouten, on.uitgezet_op], [true, 0, null]);
    const text = await cli(["webhook", "afleveringen", "--id", failing.id]);
    assert.equal(text.code, 0);
    assert.match(text.stdout, /webhook\.test\s+#1\s+200\s+\d+(\.\d)? ms\s+geen volledig antwoord binnen 10 s/);
    assert.match(text.stdout, /webhook\.test\s+#1\s+302\s+[\d.]+ ms\s+doorverwijzing/);
  });

  it("the verification example for receivers runs, serves https, and accepts a real delivery, and nothing altered", async () => {
    const port = await freePort();
    const example = spawn(process.execPath, ["--import", "tsx", path.resolve(import.meta.dirname, "../docs/verify-webhook.ts")],
      { env: { ...process.env, KOERS_WEBHOOK_SECRET: all.secret, PORT: String(port),
        TLS_CERT: certificate.certPath, TLS_KEY: path.join(certificate.dir, "key.pem") } });
    let output = "";
    example.stdout.on("data", (d) => (output += d));
    example.stderr.on("data", (d) => (output += d));
    try {
      await waitUntil(() => output.includes("listening on"), 15_000, "the example to listen");
      assert.match(output, new RegExp(`listening on https://localhost:${port}`));
      const delivery = at("/alles").find((r) => r.json.gebeurtenis === "taak.klaar")!;
      // Over https, trusting the test's certificate as a worker does.
      const post = (body: string, signature: string) => new Promise<{ status: number }>((resolve, reject) => {
        const req = https.request({ host: "127.0.0.1", servername: "localhost", port, path: "/", method: "POST", ca: certificate.cert,
          headers: { "content-type": "application/json", "x-service-signature": signature } }, (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode! }));
        });
        req.on("error", reject);
        req.end(body);
      });
      const signature = String(delivery.headers["x-service-signature"]);
      assert.equal((await post(delivery.body, signature)).status, 200);
      await waitUntil(() => output.includes(delivery.json.id), 5000, "the example to log the message");
      assert.equal((await post(delivery.body.replace("Offerte", "Offerta"), signature)).status, 400);
      const flipped = signature.replace(/v1=(.)/, (_, c: string) => `v1=${c === "0" ? "1" : "0"}`);
      assert.equal((await post(delivery.body, flipped)).status, 400);
      assert.equal((await post(delivery.body, "")).status, 400);
    } finally {
      example.kill();
    }
    // Without a certificate of its own it makes a self-signed one and still serves https only.
    const selfSigned = spawn(process.execPath, ["--import", "tsx", path.resolve(import.meta.dirname, "../docs/verify-webhook.ts")],
      { env: { ...process.env, KOERS_WEBHOOK_SECRET: all.secret, PORT: String(port), TLS_CERT: "", TLS_KEY: "" } });
    let said = "";
    selfSigned.stdout.on("data", (d) => (said += d));
    try {
      await waitUntil(() => said.includes("listening on"), 15_000, "the self-signed example to listen");
      assert.match(said, /self-signed certificate for localhost, \S+cert\.pem/);
      await assert.rejects(fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: "{}" }), "no plain http");
    } finally {
      selfSigned.kill();
    }
  });

  it("no secret is ever logged: not by the worker, not in the call log, the audit log or a notification", async () => {
    for (const s of [all.secret, failing.secret]) {
      assert.ok(!worker.output().includes(s), "worker output");
      const [{ c }] = await db.sql`select (select count(*) from app_private.aanroepen where parameters::text like ${"%" + s + "%"})
        + (select count(*) from app.audit_log where rij::text like ${"%" + s + "%"})
        + (select count(*) from app.meldingen where tekst like ${"%" + s + "%"})
        + (select count(*) from app.gebeurtenissen where gegevens::text like ${"%" + s + "%"}) as c` as unknown as [{ c: string }];
      assert.equal(Number(c), 0);
    }
    assert.match(worker.output(), /not delivered: HTTP 503/, "failures are logged, without address or secret");
    assert.ok(!worker.output().includes("/fouten"), "no address in the log");
  });
});
