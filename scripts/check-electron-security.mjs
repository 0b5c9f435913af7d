// Runs electronegativity (Doyensec's static checks of Electron's security checklist) on the
// desktop app's build in out/ and fails on any high or critical finding; the others are printed.
// `--build` runs `electron-vite build` first; `--input <dir>` checks another folder. Used by `npm run check:electron` and by
// test/electron/electron-security.test.ts.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const BLOCKING = new Set(['HIGH', 'CRITICAL']);
const SEVERITIES = new Set(['INFORMATIONAL', 'LOW', 'MEDIUM', 'HIGH', 'CRITICAL']);

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) {
    process.stderr.write(result.stdout);
    process.stderr.write(result.stderr);
    throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal})`);
  }
}

const { values } = parseArgs({
  options: { build: { type: 'boolean' }, input: { type: 'string' } },
});

if (values.build) {
  const { build } = await import('electron-vite');
  await build({ root, logLevel: 'warn' });
}

// The installed Electron's version: electronegativity's checks depend on its defaults, and it
// would otherwise try to guess it (and fetch Electron's release list).
const electronVersion = JSON.parse(
  readFileSync(require.resolve('electron/package.json'), 'utf8'),
).version;
const scratch = mkdtempSync(join(tmpdir(), 'quire-electronegativity-'));
try {
  const report = join(scratch, 'report.csv');
  const cli = require.resolve('@doyensec/electronegativity/dist/index.js');
  const input = values.input ?? join(root, 'out');
  const findings = readReport(report, () =>
    run(process.execPath, [cli, '-i', input, '-e', electronVersion, '-r', '-o', report]),
  );
  for (const finding of findings) {
    const mark = BLOCKING.has(finding.severity) ? 'FAIL' : 'note';
    console.log(`${mark} ${finding.severity} ${finding.issue} ${finding.file}:${finding.location}`);
  }
  const blocking = findings.filter((finding) => BLOCKING.has(finding.severity));
  console.log(
    `electronegativity: ${findings.length} findings, ${blocking.length} high or critical`,
  );
  process.exitCode = blocking.length === 0 ? 0 : 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

/**
 * Runs electronegativity and reads its CSV report. Its writer sometimes leaves a report whose rows
 * are interleaved (seen on a loaded machine: it exits while writes are pending), so a report with a
 * row that does not parse as a finding is produced again, up to three times, instead of being read
 * wrong in either direction.
 */
function readReport(path, produce) {
  for (let attempt = 1; ; attempt++) {
    produce();
    const findings = csvRows(readFileSync(path, 'utf8'))
      .slice(1)
      .map(([issue, severity, , file, location]) => ({ issue, severity, file, location }));
    const wellFormed = findings.every(
      (finding) => /^[A-Z_]+$/.test(finding.issue ?? '') && SEVERITIES.has(finding.severity),
    );
    if (wellFormed) return findings;
    if (attempt === 3) throw new Error('electronegativity wrote an unreadable report three times');
  }
}

/** The rows of electronegativity's CSV report: quoted fields may hold commas and line breaks. */
function csvRows(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') field += text[++i];
      else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field.trim());
      field = '';
    } else if (char === '\n') {
      row.push(field.trim());
      if (row.some((value) => value !== '')) rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  row.push(field.trim());
  if (row.some((value) => value !== '')) rows.push(row);
  return rows;
}
