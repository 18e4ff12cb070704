#!/usr/bin/env node
// The `hearth` command; `npm install` compiles the TypeScript sources to dist/ (the prepare script).
import '../dist/cli/bin.js';
