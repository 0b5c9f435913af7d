import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ensureQuireHome,
  QuireConfigError,
  quireHome,
  readQuireConfig,
  resolveQuireHomeDir,
  writeQuireConfig,
  type QuireConfig,
} from './quire-home';

const posix = process.platform !== 'win32';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-home-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const config: QuireConfig = {
  server: 'https://docs.example.test',
  user: { id: 'u-ada', displayName: 'Ada', email: 'ada@example.test' },
  folder: '/tmp/mirror',
};

describe('resolveQuireHomeDir', () => {
  it('prefers --home, then QUIRE_HOME, then ~/.quire, always absolute', () => {
    expect(resolveQuireHomeDir('/a', { QUIRE_HOME: '/b' }, '/u')).toBe('/a');
    expect(resolveQuireHomeDir(undefined, { QUIRE_HOME: '/b' }, '/u')).toBe('/b');
    expect(resolveQuireHomeDir(undefined, { QUIRE_HOME: '' }, '/u')).toBe(join('/u', '.quire'));
    expect(resolveQuireHomeDir(undefined, {}, '/u')).toBe(join('/u', '.quire'));
    expect(resolveQuireHomeDir('rel', {}, '/u')).toBe(join(process.cwd(), 'rel'));
  });
});

describe('quire home', () => {
  it('lays out config, secrets, cache and logs inside the home', () => {
    const home = quireHome(join(dir, 'h'));
    expect(home).toEqual({
      root: join(dir, 'h'),
      configFile: join(dir, 'h', 'config.json'),
      secretsFile: join(dir, 'h', 'secrets.json'),
      cacheFile: join(dir, 'h', 'cache.db'),
      logsDir: join(dir, 'h', 'logs'),
    });
  });

  it.runIf(posix)('creates the home and logs/ with mode 0700', async () => {
    const home = await ensureQuireHome(quireHome(join(dir, 'a', 'h')));
    expect(statSync(home.root).mode & 0o777).toBe(0o700);
    expect(statSync(home.logsDir).mode & 0o777).toBe(0o700);
    await ensureQuireHome(home);
  });

  it('writes config.json (0600, atomically) and reads it back', async () => {
    const home = quireHome(join(dir, 'h'));
    expect(await readQuireConfig(home)).toBeUndefined();
    await writeQuireConfig(home, config);
    expect(await readQuireConfig(home)).toEqual(config);
    if (posix) expect(statSync(home.configFile).mode & 0o777).toBe(0o600);
    expect(readdirSync(home.root).sort()).toEqual(['config.json', 'logs']);
    // Only the known fields are written, so nothing else (a token) can ride along.
    await writeQuireConfig(home, { ...config, token: 'tok-x' } as QuireConfig);
    expect(readFileSync(home.configFile, 'utf8')).not.toContain('tok-x');
  });

  it('refuses a malformed config', async () => {
    const home = await ensureQuireHome(quireHome(join(dir, 'h')));
    writeFileSync(home.configFile, '{');
    await expect(readQuireConfig(home)).rejects.toThrow(QuireConfigError);
    writeFileSync(home.configFile, JSON.stringify({ server: 'x' }));
    await expect(readQuireConfig(home)).rejects.toThrow(/not a Quire configuration/);
  });
});
