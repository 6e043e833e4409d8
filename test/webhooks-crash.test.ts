// Nothing is lost when a worker dies in the middle of a delivery (kill -9): another worker
// takes the delivery over at once (webhooks/liveness.ts) and the message arrives with the same
// id. Two workers side by side deliver each message once.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeWorld, testDatabase, type TestDb, type World } from "./helpers.ts";
import { createSigningSecret } from "../src/webhooks/signature.ts";
import {
  makeCertificate, ok, startReceiver, startWorkerProcess, waitUntil,
  type Certificate, type Receiver, type WorkerProcess,
} from "./webhooks-support.ts";

let db: TestDb, w: World, certificate: Certificate, receiver: Receiver, webhook: string;
const workers: WorkerProcess[] = [];

before(async () => {
  db = await testDatabase();
  w = await makeWorld(db.sql);
  certificate = makeCertificate();
  receiver = await startReceiver(certificate);
  const [{ r }] = await db.sql`select beheer.webhook_maken(${w.org}, null, 'Crash', ${receiver.url("/crash")},
    array['taak.aangemaakt'], ${createSigningSecret()}) as r` as unknown as [{ r: { id: string } }];
  webhook = r.id;
});
after(async () => {
  for (const worker of workers) await worker.stop();
  await receiver?.close();
  certificate?.remove();
  await db?.drop();
});

async function start(env: NodeJS.ProcessEnv = {}): Promise<WorkerProcess> {
  const worker = await startWorkerProcess(db.url, certificate, env);
  workers.push(worker);
  return worker;
}

async function delivered(n: number) {
  await waitUntil(async () => {
    const [{ c }] = await db.sql`select count(*)::int as c from app_private.webhook_berichten
      where webhook_id = ${webhook} and status = 'afgeleverd'` as unknown as [{ c: number }];
    return c >= n;
  }, 30_000, `${n} delivered messages`);
}

describe("webhook delivery when workers die or run side by side", () => {
  it("a worker killed with -9 during a delivery loses nothing: the message arrives again, same id, new delivery id", async () => {
    // Two messages before the worker starts; it delivers one at a time and fetches two jobs at
    // once: one is under way when it dies, the other waits in its local queue.
    await db.sql`insert into app.taken (org_id, omschrijving) values (${w.org}, 'Onderweg'), (${w.org}, 'In de wachtrij')`;
    let holding = true;
    receiver.answer = (r, res) => { if (!holding) ok(r, res); };
    const a = await start({ KOERS_WEBHOOK_CONCURRENCY: "1" });
    const [first] = await receiver.waitFor(1);
    const [inFlight] = await db.sql`select a.id, a.werker_slot, a.werker_pool from app_private.webhook_afleveringen a
      join app_private.webhook_berichten b on b.org_id = a.org_id and b.id = a.bericht_id where b.webhook_id = ${webhook}`;
    assert.equal(inFlight!.id, first!.headers["x-service-delivery"]);
    assert.ok(inFlight!.werker_slot !== null, "recorded as under way");
    const locked = await db.sql`select locked_by from graphile_worker._private_jobs where locked_by is not null`;
    assert.deepEqual(locked.map((j) => j.locked_by), [inFlight!.werker_pool, inFlight!.werker_pool], "both jobs locked by the worker");
    assert.equal((await db.sql`select 1 from app_private.werkers where pool = ${inFlight!.werker_pool}`).length, 1, "its pool registered");
    await a.kill9();
    holding = false;

    const b = await start();
    const got = await receiver.waitFor(3);
    const again = got.slice(1).find((r) => r.json.id === first!.json.id)!;
    const waiting = got.slice(1).find((r) => r.json.id !== first!.json.id)!;
    assert.ok(again && waiting, "the interrupted message and the waiting one both arrive");
    assert.equal(again.body, first!.body, "the same message");
    assert.notEqual(again.headers["x-service-delivery"], first!.headers["x-service-delivery"]);
    await delivered(2);
    const attempts = await db.sql`select a.id, a.poging, a.status_code, a.fout, a.werker_slot from app_private.webhook_afleveringen a
      join app_private.webhook_berichten b on b.org_id = a.org_id and b.id = a.bericht_id where b.id = ${first!.json.id} order by a.poging`;
    assert.deepEqual(attempts.map((x) => [x.id, x.poging, x.status_code, x.fout, x.werker_slot]), [
      [first!.headers["x-service-delivery"], 1, null, "onderbroken: de worker stopte tijdens de aflevering", null],
      [again.headers["x-service-delivery"], 2, 200, null, null],
    ]);
    const [hook] = await db.sql`select opeenvolgende_fouten from app_private.webhooks where id = ${webhook}`;
    assert.equal(hook!.opeenvolgende_fouten, 0, "an interrupted delivery is no failure of the receiver");
    assert.match(b.output(), /took over 1 webhook delivery of a worker that stopped/);
    // The dead worker's jobs were released, not left locked for graphile-worker's four hours.
    await waitUntil(async () => (await db.sql`select 1 from graphile_worker._private_jobs j
      join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'deliver_webhook'`).length === 0,
      10_000, "no job left");
    assert.equal((await db.sql`select 1 from app_private.werkers where pool = ${inFlight!.werker_pool}`).length, 0);
  });

  it("two workers deliver each of 300 messages exactly once", async () => {
    await start();
    receiver.answer = ok;
    const before = receiver.received.length;
    // Ten transactions of thirty tasks each, in parallel.
    await Promise.all(Array.from({ length: 10 }, (_, i) => db.sql`insert into app.taken (org_id, omschrijving)
      select ${w.org}, 'Taak ' || ${i} || '-' || n from generate_series(1, 30) n`));
    await delivered(302);
    await new Promise((r) => setTimeout(r, 500));
    const got = receiver.received.slice(before);
    assert.equal(got.length, 300);
    assert.equal(new Set(got.map((r) => r.json.id)).size, 300, "each message once");
    const [{ c }] = await db.sql`select count(*)::int as c from app_private.webhook_afleveringen a
      join app_private.webhook_berichten b on b.org_id = a.org_id and b.id = a.bericht_id where b.webhook_id = ${webhook}` as unknown as [{ c: number }];
    assert.equal(c, 303, "one delivery per message (and the three of the first test)");
  });
});
