// The results chart as a hand-written SVG: throughput against the baseline, and latency (p50, p99), per workload.
import type { BenchResults, WorkloadResult } from './results.js';
import { COLORS, compact, legend, niceCeiling, rect, text } from './svg.js';

const WIDTH = 980;
const PANEL_HEIGHT = 300;
const LEFT = 70;
const RIGHT = 20;

function labels(workloads: readonly WorkloadResult[], top: number, groupWidth: number): string[] {
  return workloads.flatMap((w, i) => {
    const x = LEFT + groupWidth * (i + 0.5);
    const words = w.title.split(', ');
    return words.map((line, n) => text(x, top + 16 + n * 13, line, 'text-anchor="middle" font-size="11"'));
  });
}

function throughputPanel(workloads: readonly WorkloadResult[], top: number): string[] {
  const plotWidth = WIDTH - LEFT - RIGHT;
  const groupWidth = plotWidth / workloads.length;
  const highest = Math.max(...workloads.flatMap((w) => [w.hearth.rps, w.baseline.rps]));
  // Four gridline steps of a round size (1, 2 or 5 times a power of ten).
  const step = niceCeiling(highest / 4);
  const max = step * Math.max(1, Math.ceil(highest / step));
  const steps = Math.round(max / step);
  const y = (value: number) => top + PANEL_HEIGHT - (value / max) * PANEL_HEIGHT;
  const out = [
    text(
      LEFT,
      top - 30,
      'Throughput (requests/s, higher is better); the number above each pair is Hearth / baseline',
      'font-size="13" font-weight="bold"',
    ),
  ];
  out.push(
    ...legend(LEFT, top - 12, [
      [COLORS.hearth, 'Hearth'],
      [COLORS.baseline, 'bare node:http, same body size'],
    ]),
  );
  for (let i = 0; i <= steps; i++) {
    const value = step * i;
    out.push(`<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y(value)}" y2="${y(value)}" stroke="#e9ecef"/>`);
    out.push(text(LEFT - 6, y(value) + 4, compact(value), 'text-anchor="end" font-size="10"'));
  }
  workloads.forEach((w, i) => {
    const bar = groupWidth * 0.32;
    const x = LEFT + groupWidth * i + groupWidth * 0.18;
    out.push(
      rect(
        x,
        y(w.hearth.rps),
        bar,
        top + PANEL_HEIGHT - y(w.hearth.rps),
        COLORS.hearth,
        `Hearth ${Math.round(w.hearth.rps)} req/s`,
      ),
    );
    out.push(
      rect(
        x + bar,
        y(w.baseline.rps),
        bar,
        top + PANEL_HEIGHT - y(w.baseline.rps),
        COLORS.baseline,
        `baseline ${Math.round(w.baseline.rps)} req/s`,
      ),
    );
    const r = w.hearth.rps / w.baseline.rps;
    const label = r > 0 && r < 0.01 ? r.toPrecision(1) : r.toFixed(2);
    out.push(
      text(
        x + bar,
        Math.min(y(w.hearth.rps), y(w.baseline.rps)) - 5,
        label,
        'text-anchor="middle" font-size="11" font-weight="bold"',
      ),
    );
  });
  out.push(...labels(workloads, top + PANEL_HEIGHT, groupWidth));
  return out;
}

function latencyPanel(workloads: readonly WorkloadResult[], top: number): string[] {
  const plotWidth = WIDTH - LEFT - RIGHT;
  const groupWidth = plotWidth / workloads.length;
  const values = workloads
    .flatMap((w) => [w.hearth.p50Ms, w.hearth.p99Ms, w.baseline.p50Ms, w.baseline.p99Ms, w.hearthAlone.p99Ms])
    .filter((v) => v > 0);
  const low = 0.1;
  const high = 10 ** Math.ceil(Math.log10(Math.max(1, ...values)));
  const decades = Math.log10(high / low);
  const y = (value: number) => top + PANEL_HEIGHT - (Math.log10(Math.max(low, value) / low) / decades) * PANEL_HEIGHT;
  const out = [
    text(
      LEFT,
      top - 30,
      'Latency (ms, log scale, lower is better): bars under load; black ticks: Hearth, one request at a time',
      'font-size="13" font-weight="bold"',
    ),
  ];
  out.push(
    ...legend(LEFT, top - 12, [
      [COLORS.hearthLight, 'Hearth p50'],
      [COLORS.hearth, 'Hearth p99'],
      [COLORS.baselineLight, 'baseline p50'],
      [COLORS.baseline, 'baseline p99'],
    ]),
  );
  for (let v = low; v <= high * 1.0001; v *= 10) {
    out.push(`<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y(v)}" y2="${y(v)}" stroke="#e9ecef"/>`);
    out.push(
      text(LEFT - 6, y(v) + 4, v < 1 ? v.toFixed(1) : String(Math.round(v)), 'text-anchor="end" font-size="10"'),
    );
  }
  workloads.forEach((w, i) => {
    const bar = groupWidth * 0.17;
    const x = LEFT + groupWidth * i + groupWidth * 0.16;
    const bars: [number, string, string][] = [
      [w.hearth.p50Ms, COLORS.hearthLight, 'Hearth p50'],
      [w.hearth.p99Ms, COLORS.hearth, 'Hearth p99'],
      [w.baseline.p50Ms, COLORS.baselineLight, 'baseline p50'],
      [w.baseline.p99Ms, COLORS.baseline, 'baseline p99'],
    ];
    bars.forEach(([value, color, label], n) => {
      out.push(
        rect(x + n * bar, y(value), bar, top + PANEL_HEIGHT - y(value), color, `${label} ${value.toFixed(2)} ms`),
      );
    });
    // The same request alone (one connection): a black tick across the Hearth bars.
    [w.hearthAlone.p50Ms, w.hearthAlone.p99Ms].forEach((value, n) => {
      out.push(
        `<line x1="${(x + n * bar - 2).toFixed(1)}" x2="${(x + (n + 1) * bar + 2).toFixed(1)}" y1="${y(value).toFixed(1)}" y2="${y(value).toFixed(1)}" stroke="#000" stroke-width="2"><title>Hearth alone p${n === 0 ? 50 : 99} ${value.toFixed(2)} ms</title></line>`,
      );
    });
    out.push(text(x + bar, y(w.hearth.p99Ms) - 4, w.hearth.p99Ms.toFixed(1), 'text-anchor="middle" font-size="10"'));
  });
  out.push(...labels(workloads, top + PANEL_HEIGHT, groupWidth));
  return out;
}

export function renderChart(results: BenchResults): string {
  const workloads = results.workloads;
  const firstTop = 100;
  const secondTop = firstTop + PANEL_HEIGHT + 100;
  const height = secondTop + PANEL_HEIGHT + 50;
  const { corpus, machine, settings } = results;
  const subtitle =
    `${corpus.scale.toLocaleString('en-US')} posts, SQLite; ${machine.cores} cores (${machine.cpuModel}), load tool on the same machine; ` +
    `autocannon, ${settings.connections} connections, ${settings.durationSeconds} s per workload; ${results.finishedAt.slice(0, 10)}`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, sans-serif">`,
    `<rect width="${WIDTH}" height="${height}" fill="#fff"/>`,
    text(LEFT, 24, 'Hearth against a bare node:http baseline', 'font-size="16" font-weight="bold"'),
    text(LEFT, 44, subtitle, 'font-size="11" fill="#495057"'),
    ...(workloads.length > 0 ? [...throughputPanel(workloads, firstTop), ...latencyPanel(workloads, secondTop)] : []),
    '</svg>',
    '',
  ].join('\n');
}
