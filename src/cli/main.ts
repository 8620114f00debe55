#!/usr/bin/env node
import { runMainCli } from './dispatch.js';
import { exitAfterFlush } from './exit-after-flush.js';

const code = await runMainCli(process.argv.slice(2));
// A finished command; undefined means it keeps serving (simulator, view) or set its own code.
if (code !== undefined) await exitAfterFlush(code);
