// Field-name modes of a token: `spec` answers with the spec's neutral names, `hosted` with the hosted product's.
export const fieldNameModes = ['spec', 'hosted'] as const;
export type FieldNames = (typeof fieldNameModes)[number];

export function parseFieldNames(text: string): FieldNames {
  const mode = fieldNameModes.find((m) => m === text.trim());
  if (!mode) throw new Error(`Unknown field names '${text}'; known: ${fieldNameModes.join(', ')}.`);
  return mode;
}

/** A stored value other than `hosted` (there is none) reads as the default. */
export const storedFieldNames = (value: string): FieldNames => (value === 'hosted' ? 'hosted' : 'spec');
