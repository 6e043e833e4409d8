// Hourly: retention. The organisation's call log, calls without an organisation, the audit log,
// used or expired confirmation codes and the AI connection's expired sign-in rows are trimmed by
// age, and the caller rows of database backends that have ended are removed, in batches, so the
// database does not grow forever and no statement holds locks for long.
import type { Task } from "graphile-worker";
import { trimInBatches } from "./batches.ts";

export interface Retention {
  /** Days the organisation's call log is kept. */
  logDays: number;
  /** Days calls without an organisation (no or an unknown key) are kept. */
  anonymousDays: number;
  /** Days the audit log is kept. */
  auditDays: number;
}

export function trimLogs(retention: Retention): Task {
  return (_payload, helpers) => trimInBatches(helpers,
    "select beheer.bewaartermijnen_toepassen($1, $2, $3, $4) || beheer.aanmeldingen_opruimen($4) as removed",
    [retention.logDays, retention.anonymousDays, retention.auditDays]);
}
