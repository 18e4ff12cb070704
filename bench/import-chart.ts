// The import chart as a hand-written SVG: records/s of each import workload per store, against its target, with peak RSS.
import { storeName, type ImportResult, type ImportResults } from './results.js';
import { COLORS, compact, legend, legendWidth, niceCeiling, rect, text } from './svg.js';
import { IMPORT_TARGETS, importRateTarget } from './targets.js';

const WIDTH = 980;
/** Row labels sit left of this; the bars start here. */
const LEFT = 200;
const RIGHT = 40;
const TOP = 100;
const HEADING_HEIGHT = 26;
const ROW_HEIGHT = 62;
const BAR_HEIGHT = 22;
/** Where the bar starts within its row: below the target's label. */
const BAR_OFFSET = 16;
const BAR_COLORS: Readonly<Record<string, string>> = {
  'import-empty': COLORS.hearth,
  'import-populated': COLORS.hearthLight,
};
const LEGEND = [
  [COLORS.hearth, 'into an empty community'],
  [COLORS.hearthLight, 'into a populated community'],
] as const;

const int = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : 'n/a');
const scaleOf = (r: ImportResults) => `${storeName(r.store)}, ${r.scale.toLocaleString('en-US')} posts`;

/** The line under a bar: its figures, and whether they meet their targets. */
function figuresLine(run: ImportResult, target: number | null): string {
  const rate =
    target === null ? '' : ` (target ≥ ${int(target)}: ${run.recordsPerSecond >= target ? 'met' : 'missed'})`;
  const rss = IMPORT_TARGETS.peakRssMb;
  return (
    `${int(run.recordsPerSecond)} records/s${rate}; ${int(run.records)} records in ${run.seconds.toFixed(1)} s; ` +
    `peak RSS ${int(run.peakRssMb)} MB (target ≤ ${rss} MB: ${run.peakRssMb <= rss ? 'met' : 'missed'})`
  );
}

function importRow(r: ImportResults, run: ImportResult, top: number, x: (value: number) => number): string[] {
  const barTop = top + BAR_OFFSET;
  const target = importRateTarget(run.name, r.store);
  const out = [
    text(LEFT - 10, barTop + 15, run.title, 'text-anchor="end" font-size="11"'),
    rect(
      LEFT,
      barTop,
      x(run.recordsPerSecond) - LEFT,
      BAR_HEIGHT,
      BAR_COLORS[run.name] ?? COLORS.baseline,
      `${storeName(r.store)}, ${run.title}: ${int(run.recordsPerSecond)} records/s`,
    ),
    text(LEFT, barTop + BAR_HEIGHT + 14, figuresLine(run, target), 'font-size="11" fill="#495057"'),
  ];
  if (target !== null) {
    const at = x(target);
    // Near the right edge the label goes left of its line, so that it stays inside the picture.
    const leftOfLine = at > WIDTH - RIGHT - 110;
    out.push(
      `<line x1="${at.toFixed(1)}" x2="${at.toFixed(1)}" y1="${(barTop - 4).toFixed(1)}" y2="${(barTop + BAR_HEIGHT + 4).toFixed(1)}" stroke="#000" stroke-width="2"><title>target ≥ ${int(target)} records/s</title></line>`,
      text(
        leftOfLine ? at - 4 : at + 4,
        top + 10,
        `target ≥ ${int(target)}/s`,
        `${leftOfLine ? 'text-anchor="end" ' : ''}font-size="10" font-weight="bold"`,
      ),
    );
  }
  return out;
}

export function renderImportChart(stores: readonly ImportResults[]): string {
  const rows = stores.reduce((n, r) => n + r.imports.length, 0);
  const plotHeight = stores.length * HEADING_HEIGHT + rows * ROW_HEIGHT;
  const bottom = TOP + plotHeight;
  const height = bottom + 50;
  const highest = Math.max(
    1,
    ...stores.flatMap((r) => r.imports.flatMap((i) => [i.recordsPerSecond, importRateTarget(i.name, r.store) ?? 0])),
  );
  // About five gridline steps of a round size, with room past the highest bar or target.
  const step = niceCeiling((highest * 1.05) / 5);
  const max = step * Math.ceil((highest * 1.05) / step);
  const x = (value: number) => LEFT + (Math.max(0, value) / max) * (WIDTH - LEFT - RIGHT);
  const out: string[] = [];
  for (let value = 0; value <= max * 1.0001; value += step) {
    const at = x(value).toFixed(1);
    out.push(`<line x1="${at}" x2="${at}" y1="${TOP - 4}" y2="${bottom}" stroke="#e9ecef"/>`);
    out.push(text(x(value), bottom + 14, compact(value), 'text-anchor="middle" font-size="10"'));
  }
  out.push(text(WIDTH - RIGHT, bottom + 30, 'records/s', 'text-anchor="end" font-size="11"'));
  let top = TOP;
  for (const r of stores) {
    out.push(
      text(
        20,
        top + 18,
        `${scaleOf(r)} (seed ${r.seed}, ${r.finishedAt.slice(0, 10)})`,
        'font-size="12" font-weight="bold"',
      ),
    );
    top += HEADING_HEIGHT;
    for (const run of r.imports) {
      out.push(...importRow(r, run, top, x));
      top += ROW_HEIGHT;
    }
  }
  const targetKey = 20 + legendWidth(LEGEND);
  const key = targetKey.toFixed(1);
  const title = `Import (records/s, higher is better): ${stores.length > 0 ? stores.map(scaleOf).join('; ') : 'not measured'}`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, sans-serif">`,
    `<rect width="${WIDTH}" height="${height}" fill="#fff"/>`,
    text(20, 24, title, 'font-size="16" font-weight="bold"'),
    text(
      20,
      44,
      'hearth import (the compiled build) of the demo corpus as NDJSON, each workload into a fresh database; one run each',
      'font-size="11" fill="#495057"',
    ),
    ...legend(20, 72, LEGEND),
    `<line x1="${key}" x2="${key}" y1="61" y2="73" stroke="#000" stroke-width="2"/>`,
    text(targetKey + 8, 72, `target (records/s); peak RSS target ≤ ${IMPORT_TARGETS.peakRssMb} MB`, 'font-size="11"'),
    ...out,
    '</svg>',
    '',
  ].join('\n');
}
