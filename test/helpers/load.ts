// A small closed-loop load over real HTTP: a few clients asking one URL again and again, with each answer's status and latency.

export interface Answer {
  status: number;
  ms: number;
  /** When the request was sent, as `performance.now()`. */
  at: number;
  body: string;
}

export interface Load {
  /** Stops the clients and resolves with every answer in the order they were sent. */
  stop(): Promise<Answer[]>;
  /** Answers so far. */
  readonly answers: Answer[];
}

export function startLoad(url: string, headers: Record<string, string>, clients = 4): Load {
  const answers: Answer[] = [];
  let running = true;
  const loop = async () => {
    while (running) {
      const at = performance.now();
      try {
        const res = await fetch(url, { headers });
        const body = await res.text();
        answers.push({ status: res.status, ms: performance.now() - at, at, body });
      } catch (error) {
        answers.push({ status: 0, ms: performance.now() - at, at, body: String(error) });
      }
    }
  };
  const loops = Array.from({ length: clients }, loop);
  return {
    answers,
    async stop() {
      running = false;
      await Promise.all(loops);
      return [...answers].sort((a, b) => a.at - b.at);
    },
  };
}

/** The p-th percentile (0 to 100) of `values`, nearest rank. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 20 ms until it holds; resolves with the milliseconds it took, or rejects after `timeoutMs`. */
export async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(20);
  }
  return performance.now() - started;
}
