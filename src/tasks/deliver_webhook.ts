// One attempt at delivering a webhook message (docs/webhooks.md). The job is queued by the
// database when the message is due (db/180_webhooks.sql); this task begins the attempt (which
// records it, so a crash cannot hide it), POSTs the signed message and records the result,
// which plans the next attempt or switches the webhook off. A failed delivery is not an error
// of the job: the retry schedule is the interface's, not graphile-worker's.
//
// The attempts that begin (or end) at the same moment in this process share one statement:
// in a burst that saves a database round trip per message, and the round trips are what
// limits throughput.
import type { Task } from "graphile-worker";
import type pg from "pg";
import type { AddressPolicy } from "../webhooks/address.ts";
import { postWebhook } from "../webhooks/deliver.ts";
import { signatureHeader } from "../webhooks/signature.ts";

export interface DeliveryOptions {
  /** The delivery workers' connection pool. */
  pool: pg.Pool;
  policy: AddressPolicy;
  /** The liveness slot of this worker process, once it holds it (webhooks/liveness.ts). */
  slot: () => number | Promise<number>;
  /** Tests that move the clock: "now" is Node's clock, for graphile-worker and for koers.nu. */
  nodeTime: boolean;
}

interface Begin {
  actie: "versturen" | "niets" | "bezig" | "overgeslagen";
  aflevering_id: string;
  bericht_id: string;
  webhook_id: string;
  url: string;
  geheim: string;
  gebeurtenis: string;
  t: number;
  tijdstip: string;
  organisatie_id: string;
  gegevens: unknown;
}

interface End { gelukt: boolean; uitgezet: boolean; webhook_id?: string; opeenvolgende_fouten?: number }

const MAX_BATCH = 100;
/** How long a delivery's result waits for the database to record it. */
const RECORD_PATIENCE_MS = 60_000;

/**
 * Calls made in the same turn of the event loop go to the database as one statement over
 * all their items (`many`); when that fails, each item is tried on its own (`one`), so one
 * bad item fails alone.
 */
function batcher<I, O>(many: (items: I[]) => Promise<O[]>, one: (item: I) => Promise<O>): (item: I) => Promise<O> {
  const pending: { item: I; resolve: (o: O) => void; reject: (e: unknown) => void }[] = [];
  const flush = () => {
    const batch = pending.splice(0, MAX_BATCH);
    if (pending.length > 0) setImmediate(flush);
    if (batch.length === 1) {
      one(batch[0]!.item).then(batch[0]!.resolve, batch[0]!.reject);
      return;
    }
    many(batch.map((b) => b.item)).then(
      (results) => batch.forEach((b, i) => b.resolve(results[i]!)),
      () => batch.forEach((b) => one(b.item).then(b.resolve, b.reject)));
  };
  return (item) => new Promise<O>((resolve, reject) => {
    pending.push({ item, resolve, reject });
    if (pending.length === 1) setImmediate(flush);
  });
}

export function deliverWebhook(options: DeliveryOptions): Task {
  /** One statement; with Node's clock, in a transaction that sets koers.nu from it first. */
  const call = async <T>(text: string, value: unknown): Promise<T> => {
    const values = [JSON.stringify(value)];
    if (!options.nodeTime) return (await options.pool.query<{ r: T }>(text, values)).rows[0]!.r;
    const client = await options.pool.connect();
    try {
      await client.query("begin");
      await client.query("select set_config('koers.nu', $1, true)", [new Date().toISOString()]);
      const { rows } = await client.query<{ r: T }>(text, values);
      await client.query("commit");
      return rows[0]!.r;
    } catch (e) {
      await client.query("rollback").catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  };
  const begin = batcher<object, Begin>(
    (items) => call("select beheer.webhook_afleveringen_begin($1::jsonb) as r", items),
    (item) => call<Begin[]>("select beheer.webhook_afleveringen_begin($1::jsonb) as r", [item]).then((r) => r[0]!));
  const end = batcher<object, End>(
    (items) => call("select beheer.webhook_afleveringen_einde($1::jsonb) as r", items),
    (item) => call<End[]>("select beheer.webhook_afleveringen_einde($1::jsonb) as r", [item]).then((r) => r[0]!));

  return async (payload, helpers) => {
    const { org_id: org, id } = payload as { org_id: string; id: string };
    const started = await begin({ org, bericht: id, slot: await options.slot(), pool: helpers.job.locked_by });
    if (started.actie !== "versturen") return;

    // The body's keys in the interface's order; this exact text is what is signed.
    const body = JSON.stringify({ id: started.bericht_id, gebeurtenis: started.gebeurtenis, tijdstip: started.tijdstip,
      organisatie_id: started.organisatie_id, gegevens: started.gegevens });
    const result = await postWebhook(new URL(started.url), body, {
      event: started.gebeurtenis, delivery: started.aflevering_id, signature: signatureHeader(started.geheim, started.t, body),
    }, options.policy);

    // The result must be recorded: an outage of the database (a restart) is waited out, up to
    // a minute; otherwise the job runs again and the message is sent a second time.
    let ended: End | null = null;
    for (let attempt = 1, since = Date.now(); ended === null; attempt++) {
      try {
        ended = await end({ org, webhook: started.webhook_id, aflevering: started.aflevering_id, status: result.status,
          fout: result.error, duur_ms: result.durationMs });
      } catch (e) {
        if (Date.now() - since > RECORD_PATIENCE_MS) throw e;
        await new Promise((r) => setTimeout(r, Math.min(200 * attempt, 1000)));
      }
    }
    if (result.error) {
      helpers.logger.info(`webhook ${started.webhook_id}: message ${started.bericht_id} (${started.gebeurtenis}) not delivered: ${result.error}`);
    }
    if (ended.uitgezet) {
      helpers.logger.warn(`webhook ${started.webhook_id} of organisation ${org} switched off after ` +
        `${ended.opeenvolgende_fouten} failed deliveries in a row; its owners are notified`);
    }
  };
}
