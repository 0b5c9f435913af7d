import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ConflictResolutionChoice } from '../../../shared/contract/conflicts';
import { CliError, EXIT_OK, EXIT_USAGE, type CliCommand, type Run, type Values } from '../cli-run';
import { conflictMarkers } from '../../../shared/conflict-markers';
import { onCommandError } from '../output/describe-error';
import { conflictJson } from '../output/json';
import { plural, quote } from '../output/text';
import { terminalText } from '../terminal-text';

export const conflicts: CliCommand = async (run, values, args) => {
  if (args[0] === 'show') return showConflict(run, values, args.slice(1));
  if (args.length > 0) {
    throw new CliError('conflicts takes no arguments besides `show <id>`', EXIT_USAGE);
  }
  const listed = await run.app.conflicts({});
  if (values.json) {
    run.out(JSON.stringify(listed.map(conflictJson), null, 2));
    return EXIT_OK;
  }
  for (const conflict of listed) {
    const page = conflict.pageTitle ? ` "${terminalText(conflict.pageTitle)}"` : '';
    run.out(
      `#${conflict.id} ${conflict.kind}: ${terminalText(conflict.spaceTitle)}${page} ${terminalText(conflict.file)}`,
    );
    run.out(`  ${terminalText(conflict.message)}`);
  }
  run.out(
    listed.length === 0
      ? 'No conflicts.'
      : `${plural(listed.length, 'conflict')}: \`quire resolve <id> --mine | --theirs | --merged <file>\` settles one.`,
  );
  return EXIT_OK;
};

/** A conflict's id as typed (`quire conflicts` lists them). */
function conflictId(text: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(text)) {
    throw new CliError(`no conflict ${quote(text)} (\`quire conflicts\` lists them)`);
  }
  return Number(text);
}

/**
 * `quire conflicts show <id>`: what both sides did, so that `--merged` is not written blind. The
 * text view is one file with diff3 markers, ready to edit into the merged version.
 */
async function showConflict(run: Run, values: Values, args: string[]): Promise<number> {
  if (args.length !== 1)
    throw new CliError('usage: quire conflicts show <id> [--json]', EXIT_USAGE);
  const id = conflictId(args[0]!);
  const versions = await onCommandError(
    run.app.conflictVersions({ id }),
    'unknown-conflict',
    (error) => new CliError(`${error.message} (\`quire conflicts\` lists them)`),
  );
  const { conflict } = versions;
  if (values.json) {
    run.out(
      JSON.stringify(
        {
          ...conflictJson(conflict),
          binary: versions.binary,
          base: versions.base,
          mine: versions.mine,
          theirs: versions.theirs,
        },
        null,
        2,
      ),
    );
    return EXIT_OK;
  }
  const page = conflict.pageTitle ? ` "${terminalText(conflict.pageTitle)}"` : '';
  run.out(`#${conflict.id} ${conflict.kind}: ${terminalText(conflict.spaceTitle)}${page}`);
  run.out(`  ${terminalText(conflict.message)}`);
  if (versions.binary) {
    run.out(
      `${terminalText(conflict.file)} is not text: compare it with the server's copy, then resolve with --mine or --theirs.`,
    );
    return EXIT_OK;
  }
  const marked = conflictMarkers(versions.base, versions.mine, versions.theirs, {
    mine: `mine (${conflict.file}${versions.mine === null ? ', deleted' : ''})`,
    theirs: `theirs (the server${versions.theirs === null ? ', deleted' : ''})`,
  });
  run.out(
    `${plural(marked.regions, 'region')} changed on both sides, marked below; ` +
      'save the text without markers to a file and run ' +
      `\`quire resolve ${conflict.id} --merged <file>\`.`,
  );
  // The page text is printed as it is (not through terminalText): it is what the user edits.
  run.io.stdout.write(marked.text);
  return EXIT_OK;
}

export const resolve: CliCommand = async (run, values, args) => {
  const usage = 'usage: quire resolve <id> --mine | --theirs | --merged <file>';
  const [idText, ...rest] = args;
  if (idText === undefined || rest.length > 0) throw new CliError(usage, EXIT_USAGE);
  const modes = (['mine', 'theirs', 'merged'] as const).filter(
    (mode) => values[mode] !== undefined,
  );
  if (modes.length !== 1) {
    throw new CliError(
      modes.length === 0
        ? `resolve needs one of --mine, --theirs or --merged <file> (${usage})`
        : `resolve takes only one of --mine, --theirs and --merged (${usage})`,
      EXIT_USAGE,
    );
  }
  const mode = modes[0]!;
  const id = conflictId(idText);
  const choice: ConflictResolutionChoice =
    mode === 'merged'
      ? { mode: 'merged', text: await mergedText(path.resolve(run.io.cwd, values.merged!)) }
      : { mode };
  const resolved = await onCommandError(
    run.app.resolveConflict({ id, choice }),
    'unknown-conflict',
    (error) =>
      new CliError(`${error.message} (\`quire conflicts\` lists them); nothing was changed`),
  );
  run.out(`Resolved conflict #${id} (${terminalText(resolved.file)}) with --${mode}.`);
  // Taking theirs writes the server's version: nothing of this device's is pushed for it.
  run.out(
    mode === 'theirs'
      ? "The file now holds the server's version and your edit of it is dropped (a sync takes it back out of the working change request if it had reached it)."
      : 'The next `quire sync --once` pushes what this queued.',
  );
  return EXIT_OK;
};

/** The `--merged` file's text: it must be readable UTF-8. */
async function mergedText(file: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new CliError(`cannot read the merged file ${file} (${reason})`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new CliError(`the merged file ${file} is not UTF-8 text; nothing was changed`);
  }
}
