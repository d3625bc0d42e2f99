import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

/**
 * CPU-bound work over user text (a digitization's rules) runs here, in a worker thread of its own, never on the
 * event loop that answers requests: however long the work takes, the server keeps answering. The thread is
 * terminated at the time limit, so no input can hold a core for longer (docs/decisions/0046).
 *
 * This file is also the thread's entry point: started as a worker, it imports the named module, calls the named
 * export with the input and posts the answer back. The module is named by its own import.meta.url, so the same
 * code runs from the sources and from the compiled dist/ tree.
 */

/** The work did not end within its time limit; the thread was terminated. */
export class IsolatedTimeout extends Error {}

/** The thread failed (the function threw, or it ran out of its memory limit). */
export class IsolatedFailure extends Error {}

interface Task {
  isolated: true;
  moduleUrl: string;
  exportName: string;
  input: unknown;
}

export interface IsolatedOptions {
  timeLimitMs: number;
  /** Heap the thread may use; running out ends it with IsolatedFailure. */
  maxHeapMb?: number;
}

/** Calls `exportName(input)` of the module at moduleUrl in a fresh worker thread, within options.timeLimitMs. */
export function runIsolated<T>(moduleUrl: string, exportName: string, input: unknown, options: IsolatedOptions) {
  const task: Task = { isolated: true, moduleUrl, exportName, input };
  const worker = new Worker(new URL(import.meta.url), {
    workerData: task,
    resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? 128 },
    stdout: false,
    stderr: false,
  });
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new IsolatedTimeout(`over ${options.timeLimitMs} ms`));
      void worker.terminate();
    }, options.timeLimitMs);
    const settle = () => clearTimeout(timer);
    worker.once('message', (message: { ok: true; value: T } | { ok: false; error: string }) => {
      settle();
      if (message.ok) resolve(message.value);
      else reject(new IsolatedFailure(message.error));
      void worker.terminate();
    });
    worker.once('error', (error) => {
      settle();
      reject(new IsolatedFailure(error.message));
    });
    worker.once('exit', (code) => {
      settle();
      // After a message or an error this does nothing: a promise settles once.
      reject(new IsolatedFailure(`the worker thread stopped (exit code ${code})`));
    });
  });
}

async function serve(task: Task): Promise<void> {
  try {
    const module = (await import(task.moduleUrl)) as Record<string, (input: unknown) => unknown>;
    const value = await module[task.exportName]!(task.input);
    parentPort!.postMessage({ ok: true, value });
  } catch (error) {
    parentPort!.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) });
  }
}

if (!isMainThread && (workerData as Task | undefined)?.isolated === true) void serve(workerData as Task);
