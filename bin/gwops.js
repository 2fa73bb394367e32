#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm run build`).
import { runProcess } from '../dist/cli/process.js';

await runProcess(process.argv);
