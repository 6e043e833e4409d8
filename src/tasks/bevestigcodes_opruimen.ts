// Hourly: confirmation codes are kept a day past their expiry (so a late second call still gets
// a clear "verlopen"), then removed.
import type { Task } from "graphile-worker";

const taak: Task = async (_payload, helpers) => {
  const { rows } = await helpers.query<{ aantal: number }>("select beheer.bevestigcodes_opruimen() as aantal");
  helpers.logger.info(`removed ${rows[0]?.aantal ?? 0} expired confirmation codes`);
};
export default taak;
