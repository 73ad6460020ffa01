// A worker thread of `rdna compile-all`: opens the cache once, then recompiles the shaders the main
// thread sends (those it did not find in the cache) and stores them, one message each way per
// shader; a 'stop' message closes the cache and ends it.
import { parentPort, workerData } from 'node:worker_threads';
import type { TargetProfile } from '../backend/profile.js';
import { ShaderCache } from '../cache/store.js';
import type { CacheChoice } from './cache-options.js';
import { runTask, type Task } from './compile-all-task.js';

export interface WorkerInit {
  readonly profile: TargetProfile;
  readonly cache: CacheChoice | null;
}

/** What a worker posts: a task's result, or a cache warning for the main thread to print (once). */
export type WorkerMessage = { readonly result: ReturnType<typeof runTask> } | { readonly warning: string };

const port = parentPort;
if (port) {
  const init = workerData as WorkerInit;
  const post = (m: WorkerMessage) => port.postMessage(m);
  const cache = init.cache ? ShaderCache.open({ dir: init.cache.dir, limit: init.cache.limit, warn: (warning) => post({ warning }) }) : undefined;
  port.on('message', (m: Task | 'stop') => {
    if (m === 'stop') {
      cache?.close();
      port.close();
      return;
    }
    post({ result: runTask(m, init.profile, cache) });
  });
}
