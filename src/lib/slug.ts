// Slugs as DECISIONS defines them: lowercase, keep [a-z0-9], space and '-', each space a '-', at most 50.

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-')
    .slice(0, 50);
}
