// Reads the text of an attachment's file so search can find it (queued by the trigger on
// app_private.bijlage_bestanden, in the transaction that stored the file). The reading happens
// in a thread with a time and a memory limit: a file that cannot be read is recorded as
// onleesbaar with the reason, and the job succeeds, so it never stops the worker or retries
// forever. Only a database error fails the job (graphile-worker retries it). Running it again,
// after a crash, writes the same result.
import type { Task } from "graphile-worker";
import { extractInThread, defaultLimits, type Limits } from "../search/extract-in-thread.ts";

interface Payload { org_id: string; bijlage_id: string }

export function extractAttachmentText(limits: Limits = defaultLimits): Task {
  return async (payload, helpers) => {
    const { org_id: org, bijlage_id: attachment } = payload as Payload;
    const { rows } = await helpers.query<{ naam: string; mimetype: string | null; inhoud: Buffer }>(
      "select naam, mimetype, inhoud from beheer.bijlage_bestand($1, $2)", [org, attachment]);
    const file = rows[0];
    if (!file) {
      helpers.logger.info(`attachment ${attachment}: gone, nothing to read`);
      return;
    }
    const outcome = await extractInThread(new Uint8Array(file.inhoud), file.naam, file.mimetype, limits);
    const parts = outcome.status === "gelezen" ? outcome.parts : [];
    const reason = outcome.status === "gelezen" ? null : outcome.reason;
    await helpers.query("select beheer.bijlage_tekst_opslaan($1, $2, $3::jsonb, $4, $5)",
      [org, attachment, JSON.stringify(parts), outcome.status, reason]);
    helpers.logger.info(`attachment ${attachment}: ${outcome.status}` +
      (outcome.status === "gelezen" ? ` (${parts.length} parts)` : ` (${reason})`));
  };
}
