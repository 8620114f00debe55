#!/usr/bin/env node
import { runMainCli } from './dispatch.js';

const code = await runMainCli(process.argv.slice(2));
if (code !== undefined) process.exitCode = code;
