// The configuration table of docs/configuration.md is generated from the config schema: every setting has a variable and a meaning, and the table is current.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { configDocUrl, configTable, withConfigTable } from '../../scripts/config-table.js';
import { ConfigSchema, variables } from '../../src/config.js';
import { withEnvFile } from '../../src/env-file.js';

describe('configuration reference', () => {
  it('documents every setting of the schema with a variable and a description', () => {
    const documented = Object.values(variables).sort();
    expect(documented).toEqual(Object.keys(ConfigSchema.properties).sort());
    for (const [key, schema] of Object.entries(ConfigSchema.properties)) expect(schema.description, key).toMatch(/\S/);
  });

  it('docs/configuration.md carries the table generated from the schema (run `npm run docs:config` after changing src/config.ts)', () => {
    const page = readFileSync(configDocUrl, 'utf8');
    expect(page).toBe(withConfigTable(page));
    expect(page).toContain(configTable());
    expect(configTable()).toContain('| `METRICS_TOKEN` | unset |');
  });

  it('reads .env under the real environment', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hearth-env-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(
      join(dir, '.env'),
      '# Hearth settings for this folder\nPORT=3999\nLOG_LEVEL=warn\nDATABASE_URL="postgres://u@db/hearth"\n',
    );
    expect(await withEnvFile({ PORT: '4100' }, dir)).toEqual({
      PORT: '4100',
      LOG_LEVEL: 'warn',
      DATABASE_URL: 'postgres://u@db/hearth',
    });
    const none = { PORT: '1' };
    expect(await withEnvFile(none, '/nonexistent')).toBe(none);
  });
});
