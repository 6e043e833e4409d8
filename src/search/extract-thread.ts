// Runs one extraction in a worker thread (src/search/extract-in-thread.ts), so a file that makes
// a parser loop or swallow memory is stopped without stopping the worker process.
import { parentPort, workerData } from "node:worker_threads";
import { extract, UnreadableFile } from "./extract.ts";

const { bytes, name, mimetype } = workerData as { bytes: Uint8Array; name: string; mimetype: string | null };
try {
  parentPort!.postMessage({ result: await extract(bytes, name, mimetype) });
} catch (e) {
  parentPort!.postMessage({ unreadable: e instanceof UnreadableFile ? e.message : String((e as Error)?.message ?? e) });
}
