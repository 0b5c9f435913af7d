#!/usr/bin/env node
// The `quire` command. It runs the TypeScript sources in place through tsx's ESM loader, so
// `npx quire …` works in a checkout after `npm install`, with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main/cli/quire-cli.ts');
await main(process.argv.slice(2));
