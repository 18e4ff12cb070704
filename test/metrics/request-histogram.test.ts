// The hand-written request histogram writes exactly what prom-client's own Histogram writes for the same observations.
import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createRequestHistogram } from '../../src/metrics/request-histogram.js';

describe('the request histogram', () => {
  it('scrapes to the same text as a prom-client Histogram fed the same observations, and resets to nothing', async () => {
    const bounds = [0.001, 0.01, 0.1, 1];
    const ours = new Registry();
    const theirs = new Registry();
    const { histogram, metric } = createRequestHistogram('h_seconds', 'Requests', bounds);
    ours.registerMetric(metric);
    const reference = new Histogram({
      name: 'h_seconds',
      help: 'Requests',
      labelNames: ['route', 'method', 'status'],
      buckets: bounds,
      registers: [theirs],
    });
    const observations: [string, string, number, number][] = [
      ['/a/:id', 'GET', 200, 0.0004],
      ['/a/:id', 'GET', 200, 0.001],
      ['/a/:id', 'GET', 304, 0.05],
      ['unmatched', 'POST', 404, 2.5],
      ['/a/:id', 'GET', 200, 0.0100001],
    ];
    for (const [route, method, status, seconds] of observations) {
      histogram.observe(route, method, status, seconds);
      reference.labels(route, method, String(status)).observe(seconds);
    }
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain('h_seconds_bucket{le="0.001",route="/a/:id",method="GET",status="200"} 2');
    ours.resetMetrics();
    expect(await ours.metrics()).toBe('# HELP h_seconds Requests\n# TYPE h_seconds histogram\n');
  });
});
