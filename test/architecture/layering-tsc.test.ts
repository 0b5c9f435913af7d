import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The per-layer TypeScript projects catch a cross-layer import on the resolved file (TS6307:
// the file is not in the project nor in a project it references), whatever the import's
// spelling. Each case compiles the layer's own tsconfig with one more root file, the scratch,
// served from memory: `tsc -b` sees the same once such a file is saved in the layer's folder.

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const NOT_IN_PROJECT = 6307;
const CANNOT_FIND_MODULE = 2307;
const CANNOT_FIND_NAME_NODE = 2591;
const CANNOT_FIND_NAME_DOM = 2584;

/** Parsed files are shared by the cases: @types/node and the layers' sources parse once. */
const parsed = new Map<string, ts.SourceFile | undefined>();

function compileWithScratch(project: string, scratchFile: string, code: string): ts.Diagnostic[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, project),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error(`cannot read ${project}`);
  const scratch = join(root, scratchFile);
  // The scratch belongs to the project: a real file beside it is one of its files.
  expect(config.fileNames.some((file) => dirname(file) === dirname(scratch))).toBe(true);

  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = (file) => file === scratch || ts.sys.fileExists(file);
  host.readFile = (file) => (file === scratch ? code : ts.sys.readFile(file));
  host.getSourceFile = (file, language, ...rest) => {
    if (file === scratch) return ts.createSourceFile(file, code, language);
    const key = `${String(language)}:${file}`;
    if (!parsed.has(key)) parsed.set(key, getSourceFile(file, language, ...rest));
    return parsed.get(key);
  };
  const program = ts.createProgram({
    rootNames: [...config.fileNames, scratch],
    options: config.options,
    projectReferences: config.projectReferences ?? [],
    host,
  });
  const source = program.getSourceFile(scratch);
  if (!source) throw new Error(`${scratchFile} is not in the program`);
  return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
}

/** The diagnostic codes reported at the line holding `specifier`. */
function codesAt(diagnostics: ts.Diagnostic[], code: string, text: string): number[] {
  const line = code.split('\n').findIndex((candidate) => candidate.includes(text));
  return diagnostics
    .filter((diagnostic) => {
      if (!diagnostic.file || diagnostic.start === undefined) return false;
      return diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line === line;
    })
    .map((diagnostic) => diagnostic.code);
}

interface Case {
  project: string;
  scratch: string;
  /** import specifier → the file it resolves to (which must exist for the case to mean anything). */
  imports: Record<string, string>;
}

const CROSS_LAYER: Array<[string, Case]> = [
  [
    'engine → server, engine → Electron shell',
    {
      project: 'tsconfig.engine.json',
      scratch: 'src/main/sync/layering-scratch.ts',
      imports: {
        '../../server/auth/roles': 'src/server/auth/roles.ts',
        '../electron/safe-storage-secret-store': 'src/main/electron/safe-storage-secret-store.ts',
      },
    },
  ],
  [
    // Only the Electron main's root (src/main/index.ts, its own project) reaches src/demo.
    'Electron shell → demo root',
    {
      project: 'tsconfig.shell.json',
      scratch: 'src/main/electron/layering-scratch.ts',
      imports: { '../../demo/demo-launcher': 'src/demo/demo-launcher.ts' },
    },
  ],
  [
    'server → engine',
    {
      project: 'tsconfig.server.json',
      scratch: 'src/server/auth/layering-scratch.ts',
      imports: { '../../main/sync-ports': 'src/main/sync-ports.ts' },
    },
  ],
  [
    'renderer → engine, renderer → server',
    {
      project: 'tsconfig.web.json',
      scratch: 'src/renderer/src/layering-scratch.ts',
      imports: {
        '../../main/sync-ports': 'src/main/sync-ports.ts',
        '../../server/auth/roles': 'src/server/auth/roles.ts',
      },
    },
  ],
  [
    'shared → engine, shared → server',
    {
      project: 'tsconfig.shared.json',
      scratch: 'src/shared/layering-scratch.ts',
      imports: {
        '../main/sync-ports': 'src/main/sync-ports.ts',
        '../server/auth/roles': 'src/server/auth/roles.ts',
      },
    },
  ],
];

describe('tsc -b rejects a cross-layer import', { timeout: 60_000 }, () => {
  it.each(CROSS_LAYER)('%s', (_arrow, { project, scratch, imports }) => {
    const specifiers = Object.keys(imports);
    const code = specifiers
      .map((specifier, i) => `import type * as m${i} from '${specifier}';\nexport type { m${i} };`)
      .join('\n');
    const diagnostics = compileWithScratch(project, scratch, code);
    for (const [specifier, target] of Object.entries(imports)) {
      expect(existsSync(join(root, target)), `${target} exists`).toBe(true);
      expect(codesAt(diagnostics, code, `'${specifier}'`), specifier).toContain(NOT_IN_PROJECT);
    }
  });

  it('shared → a Node builtin, Node globals, DOM globals', () => {
    const code = [
      "import { readFileSync } from 'node:fs';",
      'export const read = readFileSync;',
      'export const home = process.env.HOME;',
      'export const title = document.title;',
    ].join('\n');
    const diagnostics = compileWithScratch(
      'tsconfig.shared.json',
      'src/shared/layering-scratch.ts',
      code,
    );
    expect(codesAt(diagnostics, code, 'node:fs')).toContain(CANNOT_FIND_MODULE);
    expect(codesAt(diagnostics, code, 'process')).toContain(CANNOT_FIND_NAME_NODE);
    expect(codesAt(diagnostics, code, 'document')).toContain(CANNOT_FIND_NAME_DOM);
  });

  it('renderer → Node globals', () => {
    const code = "export const home = process.env.HOME;\nexport const bytes = Buffer.from('x');";
    const diagnostics = compileWithScratch(
      'tsconfig.web.json',
      'src/renderer/src/layering-scratch.ts',
      code,
    );
    expect(codesAt(diagnostics, code, 'process')).toContain(CANNOT_FIND_NAME_NODE);
    expect(codesAt(diagnostics, code, 'Buffer')).toContain(CANNOT_FIND_NAME_NODE);
  });

  it('an allowed import compiles: engine → shared', () => {
    const code =
      "import type * as contract from '../../shared/app-info';\nexport type { contract };";
    const diagnostics = compileWithScratch(
      'tsconfig.engine.json',
      'src/main/sync/layering-scratch.ts',
      code,
    );
    expect(codesAt(diagnostics, code, 'app-info')).not.toContain(NOT_IN_PROJECT);
  });
});
