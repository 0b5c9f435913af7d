import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_TOKEN } from '../server/fixture/demo-workspace';
import { demoLauncher } from './demo-launcher';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('demoLauncher', () => {
  it('starts the demo server once, knows its URL across runs, and closes it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-demo-launcher-'));
    const launcher = demoLauncher(dir);
    expect(await launcher.serves('http://127.0.0.1:8787')).toBe(false);
    const first = await launcher.start();
    expect(first.token).toBe(DEMO_TOKEN);
    expect(await launcher.start()).toEqual(first);
    const orgs = await fetch(`${first.server}/v1/orgs`, {
      headers: { authorization: `Bearer ${DEMO_TOKEN}` },
    });
    expect(orgs.status).toBe(200);
    await launcher.close();
    expect(await demoLauncher(dir).serves(first.server)).toBe(true);
  });
});
