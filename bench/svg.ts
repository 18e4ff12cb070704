// SVG building blocks shared by the benchmark's hand-written charts: escaping, text, bars, legend, axis steps, palette.

export const COLORS = { hearth: '#d9480f', baseline: '#868e96', hearthLight: '#ffa94d', baselineLight: '#ced4da' };

export const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
export const text = (x: number, y: number, content: string, attrs = ''): string =>
  `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" ${attrs}>${escapeXml(content)}</text>`;
export const rect = (x: number, y: number, width: number, height: number, fill: string, title: string): string =>
  `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${width.toFixed(1)}" height="${Math.max(0, height).toFixed(1)}" fill="${fill}"><title>${escapeXml(title)}</title></rect>`;

/** A round axis maximum at or above `value`: 1, 2 or 5 times a power of ten. */
export function niceCeiling(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

/** An axis label: 950, 1.5k, 20k. */
export const compact = (value: number): string =>
  value >= 10_000
    ? `${Math.round(value / 1000)}k`
    : value >= 1000
      ? `${(value / 1000).toFixed(1)}k`
      : `${Math.round(value)}`;

/** The width `legend` gives one item: its swatch, its label and the gap after it. */
const legendItemWidth = (label: string): number => 34 + label.length * 6.2;

/** How far a legend of `items` reaches from where it starts. */
export const legendWidth = (items: readonly (readonly [string, string])[]): number =>
  items.reduce((width, [, label]) => width + legendItemWidth(label), 0);

/** A row of colour swatches and labels from `x`, each as wide as its label needs. */
export function legend(x: number, y: number, items: readonly (readonly [string, string])[]): string[] {
  let at = x;
  return items.flatMap(([color, label]) => {
    const parts = [
      `<rect x="${at}" y="${y - 9}" width="10" height="10" fill="${color}"/>`,
      text(at + 14, y, label, 'font-size="11"'),
    ];
    at += legendItemWidth(label);
    return parts;
  });
}
