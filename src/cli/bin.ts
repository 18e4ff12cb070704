// Process entry of the `hearth` command (bin/hearth.js runs the compiled copy of this file).
import { withEnvFile } from '../env-file.js';
import { isBrokenPipe } from './output.js';
import { main } from './main.js';

// A closed pipe on stdout (`hearth export | head`) ends the command quietly, as it does for `cat`.
process.stdout.on('error', (error) => {
  if (isBrokenPipe(error)) process.exit(0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2), undefined, await withEnvFile(process.env, process.cwd()));
