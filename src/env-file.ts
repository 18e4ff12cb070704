// The environment Hearth's command reads: a `.env` file in the working directory, under the real environment (which wins).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `env` with the variables of `dir/.env` added where `env` lacks them; dotenv is loaded only when the file exists. */
export async function withEnvFile(env: NodeJS.ProcessEnv, dir: string): Promise<NodeJS.ProcessEnv> {
  const path = join(dir, '.env');
  if (!existsSync(path)) return env;
  const { parse } = await import('dotenv');
  return { ...parse(readFileSync(path)), ...env };
}
