// Starts a worker thread from a module beside the caller: the compiled file, or under a TypeScript runner (the tests) the source through tsx's loader.
import { Worker, type ResourceLimits } from 'node:worker_threads';

/** `name` without extension, resolved against `base` (the caller's import.meta.url). */
export function startWorkerModule(
  base: string,
  name: string,
  workerData: unknown,
  resourceLimits?: ResourceLimits,
): Worker {
  if (!base.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, base), { workerData, resourceLimits });
  const source = JSON.stringify(new URL(`./${name}.ts`, base).href);
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${source}); });`;
  return new Worker(boot, { eval: true, workerData, resourceLimits });
}
