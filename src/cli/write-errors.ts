// A write a command runs through a feature's service: its refusal (an unknown record, members not found) becomes the
// command line's own error, every problem on a line of its own.
import { CliError } from './cli-error.js';

/** Runs `work`; an AppError leaves as a CliError naming each of its problems. */
export async function refusing<T>(work: () => Promise<T>): Promise<T> {
  const { AppError } = await import('../errors.js');
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const problems = (error.details ?? []).map((p) => `  ${p.field}: ${p.message}`);
    throw new CliError(problems.length > 0 ? ['Refused:', ...problems].join('\n') : error.message);
  }
}
