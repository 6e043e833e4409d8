// Preloaded into a `koers worker` process by test/webhooks-retry.test.ts (node --import): Node's
// clock stands still at KOERS_TEST_CLOCK until the test moves it (IPC message {now}; the answer
// {now} says it moved). The worker runs with KOERS_WORKER_NODE_TIME=aan, so graphile-worker
// judges when a job is due by this clock, and every delivery sets koers.nu from it.
const RealDate = Date;
let frozen = RealDate.parse(process.env.KOERS_TEST_CLOCK ?? "");
if (Number.isNaN(frozen)) throw new Error("KOERS_TEST_CLOCK must be an ISO time");

class TestDate extends RealDate {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(frozen);
    else super(...(args as [string]));
  }
  static override now(): number {
    return frozen;
  }
}
globalThis.Date = TestDate as DateConstructor;

process.on("message", (m: { now?: string }) => {
  if (typeof m?.now !== "string") return;
  frozen = RealDate.parse(m.now);
  process.send!({ now: new RealDate(frozen).toISOString() });
});
