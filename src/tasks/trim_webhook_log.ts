// Hourly: the webhook delivery log is kept for a number of days (KOERS_RETENTION_WEBHOOK_DAYS,
// default 30): older attempts, finished messages without attempts left, and events that no
// message refers to, are removed in batches (batches.ts), like the other logs (trim_logs).
import type { Task } from "graphile-worker";
import { trimInBatches } from "./batches.ts";

export function trimWebhookLog(days: number): Task {
  return (_payload, helpers) => trimInBatches(helpers, "select beheer.webhook_log_inkorten($1, $2) as removed", [days]);
}
