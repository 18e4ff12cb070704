#!/usr/bin/env node
// Entry point of the `hearth` command; the TypeScript sources are compiled by `npm install` (prepare).
import { main } from '../dist/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
