// Worker thread for large listings: formats one speculative piece of a section (see parallel.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { formatRange, type RangeJob } from './listing-format.js';

const job = workerData as RangeJob;
const result = formatRange(job);
// The body's buffers move to the main thread without a copy.
parentPort?.postMessage(result, result.body.map((b) => b.buffer as ArrayBuffer));
