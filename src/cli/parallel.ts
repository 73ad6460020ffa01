// Large listings on several cores. A section is cut into pieces; worker threads format all but
// the first piece speculatively (decoding from a cut that may fall inside an instruction), while
// the main thread formats the first and writes. Instruction streams resynchronise within a few
// records (and exactly at every label), so each piece is joined to the previous one at the first
// record start both agree on: the output is byte for byte what one serial walk prints. If two
// pieces never agree within SYNC records, the rest of the section is formatted serially.
import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { formatRange, type IndexedRecord, type RangeJob, type RangeResult } from './listing-format.js';
import type { Output } from './output.js';

/** Records compared at each join (overridable for tests: RDNA_PARALLEL_SYNC). */
const SYNC = Math.max(1, Number(process.env['RDNA_PARALLEL_SYNC'] ?? 256));
/** Fewest dwords per piece worth a thread (overridable for tests: RDNA_PARALLEL_MIN_WORDS). */
const MIN_WORDS = Number(process.env['RDNA_PARALLEL_MIN_WORDS'] ?? 120_000);
const WORKER = new URL('./disasm-worker.js', import.meta.url);

export type SectionJob = Omit<RangeJob, 'from' | 'to' | 'headCount' | 'tailCount'>;

function threads(): number {
  const env = process.env['RDNA_THREADS'];
  if (env !== undefined && /^\d+$/.test(env)) return Math.max(1, Number(env));
  // Measured on a 2-core machine, two threads are slower than one (each runs slower: the cores
  // and V8's own GC threads contend), so threads are used only where cores are to spare.
  const cores = availableParallelism();
  return cores >= 4 ? Math.min(cores - 1, 8) : 1;
}

function runWorker(job: RangeJob): { result: Promise<RangeResult>; worker: Worker } {
  const worker = new Worker(WORKER, { workerData: job });
  const result = new Promise<RangeResult>((resolve, reject) => {
    worker.once('message', (r: RangeResult) => resolve(r));
    worker.once('error', reject);
    worker.once('exit', (code) => { if (code !== 0) reject(new Error(`disassembly worker exited with code ${code}`)); });
  });
  return { result, worker };
}

export async function listSection(job: SectionJob, out: Output): Promise<void> {
  const n = job.words.length;
  const emit = (record: Uint8Array) => out.bytes(record);
  const pieces = Math.min(threads(), Math.floor(n / MIN_WORDS));
  if (pieces < 2 || !existsSync(fileURLToPath(WORKER))) {
    formatRange({ ...job, from: 0, to: n, headCount: 0, tailCount: 0 }, out.sink);
    return;
  }
  const bounds = Array.from({ length: pieces + 1 }, (_, c) => Math.floor((n * c) / pieces));
  const workers = [];
  for (let c = 1; c < pieces; c++) {
    workers.push(runWorker({ ...job, from: bounds[c] ?? n, to: bounds[c + 1] ?? n, headCount: SYNC, tailCount: c < pieces - 1 ? SYNC : 0 }));
  }
  try {
    // Let the workers start before this thread stays busy with its own piece.
    await Promise.all(workers.map((w) => new Promise<void>((resolve) => { w.worker.once('online', () => resolve()); w.worker.once('error', () => resolve()); })));
    let tail: IndexedRecord[] = formatRange({ ...job, from: 0, to: bounds[1] ?? n, headCount: 0, tailCount: SYNC }, out.sink).tail;
    for (const w of workers) {
      const next = await w.result;
      const at = new Map<number, number>(next.head.map(([idx], k) => [idx, k]));
      const meet = tail.findIndex(([idx]) => at.has(idx));
      if (meet < 0) {
        // No agreement: everything from the last record we trust on is formatted here.
        const last = tail[tail.length - 1];
        for (const [, t] of tail.slice(0, -1)) emit(t);
        if (last) formatRange({ ...job, from: last[0], to: n, headCount: 0, tailCount: 0 }, out.sink);
        return;
      }
      for (const [, t] of tail.slice(0, meet)) emit(t);
      const k = at.get(tail[meet]?.[0] ?? -1) ?? 0;
      for (const [, t] of next.head.slice(k)) emit(t);
      for (const chunk of next.body) out.bytes(chunk);
      tail = next.tail;
    }
  } finally {
    for (const w of workers) void w.worker.terminate();
  }
}
