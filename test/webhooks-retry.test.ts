// The retry schedule and the switch-off, under a clock the test moves. The worker is a real
// `koers worker` process whose Node clock stands still until the test moves it
// (test/webhooks-clock.ts, KOERS_WORKER_NODE_TIME=aan): graphile-worker judges when a job is due
// by that clock and every delivery sets koers.nu from it, so the schedule is exact to the second.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { makeWorld, testDatabase, type TestDb, type World } from "./helpers.ts";
import { createSigningSecret } from "../src/webhooks/signature.ts";
import {
  cliJson, koersCli, makeCertificate, ok, startReceiver, startWorkerProcess, status, waitUntil,
  type Certificate, type Receiver, type WorkerProcess,
} from "./webhooks-support.ts";

const T0 = Date.parse("2026-05-14T09:00:00Z");
const SCHEDULE_S = [60, 5 * 60, 30 * 60, 2 * 3600, 12 * 3600];
const iso = (ms: number) => new Date(ms).toISOString();

let db: TestDb, w: World, certificate: Certificate, receiver: Receiver, worker: WorkerProcess;
let webhook: string;
const tasks: number[] = [];

before(async () => {
  db = await testDatabase();
  w = await makeWorld(db.sql);
  certificate = makeCertificate();
  receiver = await startReceiver(certificate);
  const [{ r }] = await db.sql`select beheer.webhook_maken(${w.org}, null, 'Herhaling', ${receiver.url("/retry")},
    array['taak.klaar'], ${createSigningSecret()}) as r` as unknown as [{ r: { id: string } }];
  webhook = r.id;
  for (let i = 0; i < 4; i++) {
    const [t] = await db.sql`insert into app.taken (org_id, omschrijving) values (${w.org}, ${`Taak ${i}`}) returning nummer`;
    tasks.push(t!.nummer);
  }
  worker = await startWorkerProcess(db.url, certificate, { KOERS_WORKER_NODE_TIME: "aan", KOERS_TEST_CLOCK: iso(T0) },
    ["--import", "tsx", "--import", path.resolve(import.meta.dirname, "webhooks-clock.ts")]);
});
after(async () => {
  await worker?.stop();
  await receiver?.close();
  certificate?.remove();
  await db?.drop();
});

async function setClock(ms: number) {
  const moved = new Promise((resolve) => worker.proc.once("message", resolve));
  worker.proc.send({ now: iso(ms) });
  assert.deepEqual(await moved, { now: iso(ms) });
}

/** Ticks a task off as the app does, at the test clock's time. */
async function tick(nummer: number, at: number) {
  await db.sql.begin(async (tx) => {
    await tx`select set_config('koers.nu', ${iso(at)}, true)`;
    await tx`select beheer.taak_afvinken(${w.org}, ${nummer})`;
  });
}

/** Waits until n attempts in all have arrived and have their result recorded. */
async function settled(n: number) {
  await receiver.waitFor(n);
  await waitUntil(async () => {
    const [{ c }] = await db.sql`select count(*)::int as c from app_private.webhook_afleveringen a
      join app_private.webhook_berichten b on b.org_id = a.org_id and b.id = a.bericht_id
      where b.webhook_id = ${webhook} and a.werker_slot is null` as unknown as [{ c: number }];
    return c >= n;
  }, 15_000, `${n} recorded attempts`);
  assert.equal(receiver.received.length, n, "no more than expected");
}

async function hook() {
  const [h] = await db.sql`select aan, opeenvolgende_fouten, uitgezet_op from app_private.webhooks where id = ${webhook}`;
  return h!;
}

const signedAt = (n: number) => Number(/^t=(\d+),/.exec(String(receiver.received[n]!.headers["x-service-signature"]))![1]) * 1000;

describe("webhook retries under a moved clock", () => {
  it("a failing receiver sees the message again after 1 min, 5 min, 30 min, 2 h and 12 h; a success resets the count", async () => {
    receiver.answer = status(500);
    await tick(tasks[0]!, T0);
    await settled(1);
    let failedAt = T0;
    for (let i = 0; i < SCHEDULE_S.length; i++) {
      const due = failedAt + SCHEDULE_S[i]! * 1000;
      const [m] = await db.sql`select volgende_poging_op, mislukte_pogingen from app_private.webhook_berichten where webhook_id = ${webhook}`;
      assert.deepEqual([m!.volgende_poging_op.getTime(), m!.mislukte_pogingen], [due, i + 1], `retry ${i + 1} planned`);
      assert.equal((await hook()).opeenvolgende_fouten, i + 1);
      if (i === 0) {
        // The delivery log says when the next attempt is due, on the failed attempt only.
        const log = await cliJson(db.url, ["webhook", "deliveries", "--id", webhook]);
        assert.deepEqual(log.map((a: { poging: number; volgende_poging_op: string | null }) =>
          [a.poging, a.volgende_poging_op && Date.parse(a.volgende_poging_op)]), [[1, due]]);
        const text = await koersCli(db.url, ["webhook", "deliveries", "--id", webhook]);
        assert.match(text.stdout, new RegExp(`#1 +500 .*next attempt ${iso(due).replace(/\./g, "\\.")}`));
      }
      // A second before it is due, nothing arrives (the worker polls every second).
      await setClock(due - 1000);
      await new Promise((r) => setTimeout(r, 1600));
      assert.equal(receiver.received.length, i + 1, `retry ${i + 1} not before it is due`);
      if (i === SCHEDULE_S.length - 1) receiver.answer = ok;
      await setClock(due);
      await settled(i + 2);
      failedAt = due;
    }
    const times = receiver.received.map((_, n) => signedAt(n) - T0);
    assert.deepEqual(times, [0, 60, 360, 2160, 9360, 52560].map((s) => s * 1000), "signed at the attempt times");
    assert.equal(new Set(receiver.received.map((r) => r.json.id)).size, 1, "the same message id every time");
    assert.equal(new Set(receiver.received.map((r) => r.headers["x-service-delivery"])).size, 6, "a new delivery id each time");
    const attempts = await db.sql`select a.tijdstip, a.poging, a.status_code, a.id from app_private.webhook_afleveringen a
      join app_private.webhook_berichten b on b.org_id = a.org_id and b.id = a.bericht_id where b.webhook_id = ${webhook} order by a.poging`;
    assert.deepEqual(attempts.map((a) => [a.tijdstip.getTime() - T0, a.poging, a.status_code]),
      [[0, 1, 500], [60_000, 2, 500], [360_000, 3, 500], [2_160_000, 4, 500], [9_360_000, 5, 500], [52_560_000, 6, 200]]);
    assert.deepEqual(attempts.map((a) => a.id), receiver.received.map((r) => r.headers["x-service-delivery"]));
    const [m] = await db.sql`select status, afgeleverd_op from app_private.webhook_berichten where webhook_id = ${webhook}`;
    assert.deepEqual([m!.status, m!.afgeleverd_op.getTime()], ["afgeleverd", T0 + 52_560_000]);
    assert.deepEqual(await hook(), { aan: true, opeenvolgende_fouten: 0, uitgezet_op: null }, "the success reset the count");
  });

  it("fifteen failed deliveries in a row switch the webhook off and notify the owner; later retries are not sent", async () => {
    const T1 = T0 + 15 * 3600_000;
    receiver.answer = status(500);
    await setClock(T1);
    for (const n of tasks.slice(1)) await tick(n, T1);
    let at = T1, received = 6;
    for (let step = 0; step < 5; step++) {
      if (step > 0) {
        at += SCHEDULE_S[step - 1]! * 1000;
        await setClock(at);
      }
      received += 3;
      await settled(received);
      const h = await hook();
      if (step < 4) {
        // Seventeen failures since the last success of the webhook, but only twelve in a row.
        assert.deepEqual([h.aan, h.opeenvolgende_fouten], [true, 3 * (step + 1)], `step ${step + 1}`);
      } else {
        assert.deepEqual([h.aan, h.opeenvolgende_fouten, h.uitgezet_op.getTime()], [false, 15, at], "switched off at the fifteenth");
      }
    }
    const notes = await cliJson(db.url, ["meldingen", "--org", w.org]);
    assert.equal(notes.length, 1);
    assert.equal(notes[0].user_id, w.members.eigenaar.user_id);
    assert.equal(new Date(notes[0].tijdstip).getTime(), at);
    assert.match(notes[0].tekst, new RegExp(`^Webhook "Herhaling" is uitgezet na 15 mislukte afleveringen op rij \\(laatste: HTTP 500\\)\\. ` +
      `Zet hem weer aan met: koers webhook aan --id ${webhook}$`));
    const [log] = await db.sql`select door, operatie, parameters from app_private.aanroepen where org_id = ${w.org} and operatie = 'webhook_uitgezet'`;
    assert.deepEqual([log!.door, log!.parameters.id, log!.parameters.opeenvolgende_fouten], ["app", webhook, 15]);
    await waitUntil(() => worker.output().includes(`webhook ${webhook} of organisation ${w.org} switched off after 15 failed deliveries in a row`),
      5000, "the worker's log line");

    // The next retries fall due while the webhook is off: they are skipped, not sent.
    await setClock(at + SCHEDULE_S[4]! * 1000);
    await waitUntil(async () => {
      const rows = await db.sql`select status, reden from app_private.webhook_berichten where webhook_id = ${webhook} and status <> 'afgeleverd'`;
      return rows.length === 3 && rows.every((r) => r.status === "overgeslagen" && r.reden === "de webhook stond uit");
    }, 10_000, "the skipped messages");
    assert.equal(receiver.received.length, received, "nothing sent to a switched-off webhook");
    assert.equal((await cliJson(db.url, ["meldingen", "--org", w.org, "--user", w.members.lid.user_id])).length, 0,
      "only the owner is notified");
  });

  it("the delivery log is kept 30 days (trim_webhook_log)", async () => {
    const trim = (at: number) => db.sql.begin(async (tx) => {
      await tx`select set_config('koers.nu', ${iso(at)}, true)`;
      return (await tx`select beheer.webhook_log_inkorten(30, 2) as r`)[0]!.r;
    });
    const count = async () => (await db.sql`select (select count(*) from app_private.webhook_afleveringen)::int as a,
      (select count(*) from app_private.webhook_berichten)::int as b, (select count(*) from app.gebeurtenissen)::int as g,
      (select count(*) from app.gebeurtenissen g where not exists (select 1 from app_private.webhook_berichten b
                                                                   where b.org_id = g.org_id and b.gebeurtenis_id = g.id))::int as los`)[0]!;
    // Four events with a message each (taak.klaar, on the moved clock), four that no webhook
    // wanted (taak.aangemaakt, made by the world on today's clock).
    assert.deepEqual(await count(), { a: 21, b: 4, g: 8, los: 4 });
    // Thirty days after the first message's sixth attempt: its first five attempts go, two at a
    // time; the events of that age stay while their messages do.
    const month = { webhook_berichten: 0, gebeurtenissen: 0 };
    assert.deepEqual(await trim(T0 + 52_560_000 + 30 * 86_400_000 - 1), { webhook_afleveringen: 2, ...month });
    assert.deepEqual(await trim(T0 + 52_560_000 + 30 * 86_400_000 - 1), { webhook_afleveringen: 2, ...month });
    assert.deepEqual(await trim(T0 + 52_560_000 + 30 * 86_400_000 - 1), { webhook_afleveringen: 1, ...month });
    assert.deepEqual(await count(), { a: 16, b: 4, g: 8, los: 4 });
    // A year on, everything finished is gone: attempts first, then messages without attempts,
    // then the events no message refers to.
    for (let i = 0; i < 20; i++) await trim(T0 + 365 * 86_400_000);
    assert.deepEqual(await count(), { a: 0, b: 0, g: 0, los: 0 });
  });
});
