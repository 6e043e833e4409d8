// One attempt at delivering a webhook message (docs/webhooks.md). The job is queued by the
// database when the message is due (db/180_webhooks.sql); this task begins the attempt (which
// records it, so a crash cannot hide it), POSTs the signed message and records the result,
// which plans the next attempt or switches the webhook off. A failed delivery is not an error
// of the job: the retry schedule is the interface's, not graphile-worker's.
import type { JobHelpers, Task } from "graphile-worker";
import type { AddressPolicy } from "../webhooks/address.ts";
import { postWebhook } from "../webhooks/deliver.ts";
import { signatureHeader } from "../webhooks/signature.ts";

export interface DeliveryOptions {
  policy: AddressPolicy;
  /** The liveness slot of this worker process (webhooks/liveness.ts). */
  slot: () => number;
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

/** One statement; with Node's clock, inside a transaction that sets koers.nu from it first. */
async function call<T>(helpers: JobHelpers, nodeTime: boolean, text: string, values: unknown[]): Promise<T> {
  if (!nodeTime) return (await helpers.query<{ r: T }>(text, values)).rows[0]!.r;
  return helpers.withPgClient(async (client) => {
    await client.query("begin");
    try {
      await client.query("select set_config('koers.nu', $1, true)", [new Date().toISOString()]);
      const { rows } = await client.query<{ r: T }>(text, values);
      await client.query("commit");
      return rows[0]!.r;
    } catch (e) {
      await client.query("rollback").catch(() => {});
      throw e;
    }
  });
}

export function deliverWebhook(options: DeliveryOptions): Task {
  return async (payload, helpers) => {
    const { org_id: org, id } = payload as { org_id: string; id: string };
    const begin = await call<Begin>(helpers, options.nodeTime,
      "select beheer.webhook_aflevering_begin($1, $2, $3, $4) as r", [org, id, options.slot(), helpers.job.locked_by]);
    if (begin.actie !== "versturen") return;

    // The body's keys in the interface's order; this exact text is what is signed.
    const body = JSON.stringify({ id: begin.bericht_id, gebeurtenis: begin.gebeurtenis, tijdstip: begin.tijdstip,
      organisatie_id: begin.organisatie_id, gegevens: begin.gegevens });
    const result = await postWebhook(new URL(begin.url), body, {
      event: begin.gebeurtenis, delivery: begin.aflevering_id, signature: signatureHeader(begin.geheim, begin.t, body),
    }, options.policy);

    // The result must be recorded: a passing database hiccup is waited out.
    let end: End | null = null;
    for (let attempt = 1; end === null; attempt++) {
      try {
        end = await call<End>(helpers, options.nodeTime, "select beheer.webhook_aflevering_einde($1, $2, $3, $4, $5) as r",
          [org, begin.aflevering_id, result.status, result.error, result.durationMs]);
      } catch (e) {
        if (attempt >= 5) throw e;
        await new Promise((r) => setTimeout(r, 200 * attempt));
      }
    }
    if (result.error) {
      helpers.logger.info(`webhook ${begin.webhook_id}: message ${begin.bericht_id} (${begin.gebeurtenis}) not delivered: ${result.error}`);
    }
    if (end.uitgezet) {
      helpers.logger.warn(`webhook ${begin.webhook_id} of organisation ${org} switched off after ` +
        `${end.opeenvolgende_fouten} failed deliveries in a row; its owners are notified`);
    }
  };
}
