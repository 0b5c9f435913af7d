import { resolve } from 'node:path';
import { ImportFolderError, importGitSyncFolder } from '../../import/import-gitsync-folder';
import { ImportUploadError } from '../../import/upload-import';
import { CliError, EXIT_OK, EXIT_USAGE, type CliCommand } from '../cli-run';
import { plural, quote } from '../output/text';
import { terminalText } from '../terminal-text';
import { importRepositoryUrl, isRepositoryUrl } from './import-url';

const USAGE_LINE = 'usage: quire import <folder> --space <spaceId> [--subject <text>] [--merge]';

/**
 * `quire import <folder> --space <id>`: a Git Sync folder into the space as one change request
 * (left open for review; merged with --merge). Problems per file are printed first; the import
 * still goes ahead, as Git Sync's would.
 */
export const importFolder: CliCommand = async (run, values, args) => {
  const [folderArg, ...rest] = args;
  if (folderArg !== undefined && rest.length === 0 && isRepositoryUrl(folderArg)) {
    return importRepositoryUrl(run, values, folderArg).catch((error: unknown) => {
      throw cliErrorOf(error, values.space ?? '');
    });
  }
  const spaceId = values.space;
  if (folderArg === undefined || rest.length > 0 || spaceId === undefined) {
    throw new CliError(USAGE_LINE, EXIT_USAGE);
  }
  const folder = resolve(run.io.cwd, folderArg);
  const { server, token } = await run.app.importTarget();
  let result;
  try {
    result = await importGitSyncFolder(
      folder,
      {
        server,
        token,
        spaceId,
        ...(values.subject !== undefined ? { subject: values.subject } : {}),
        ...(values.merge ? { merge: true } : {}),
      },
      {
        onChecked: (problems) => {
          for (const problem of problems) {
            const where = `${problem.path || '.'}${problem.line !== undefined ? `:${problem.line}` : ''}`;
            run.warn(`${terminalText(where)}: ${terminalText(problem.message)}`);
          }
        },
      },
    );
  } catch (error) {
    throw cliErrorOf(error, spaceId);
  }
  const { answer, sent } = result;
  const cr = answer.changeRequest;
  run.out(
    `Imported ${plural(answer.pages, 'page')} and ${plural(answer.files, 'file')} ` +
      `(${plural(sent.files, 'file')} sent, ${formatBytes(sent.bytes)}) into change request ` +
      `#${cr.number} ${quote(terminalText(cr.subject ?? ''))} of space ${spaceId}` +
      (answer.merged ? ', merged.' : ', open for review.'),
  );
  for (const problem of answer.problems) {
    run.warn(`server: ${terminalText(problem.path)}: ${terminalText(problem.message)}`);
  }
  if (answer.redirects > 0)
    run.out(`${plural(answer.redirects, 'redirect')} read from .gitbook.yaml.`);
  if (cr.urls.app !== undefined) run.out(`Review it: ${cr.urls.app}`);
  if (!answer.merged) {
    run.out(
      `Merge it there (or import again with --merge), then \`quire sync --once\` mirrors the space.`,
    );
  }
  return EXIT_OK;
};

function cliErrorOf(error: unknown, spaceId: string): unknown {
  if (error instanceof ImportFolderError) return new CliError(error.message, EXIT_USAGE);
  if (!(error instanceof ImportUploadError)) return error;
  switch (error.status) {
    case 401:
      return new CliError('the server rejected the token: run `quire login` again');
    case 403:
      return new CliError(`not allowed to import into space ${spaceId} (${error.message})`);
    case 404:
      return new CliError(`no space ${quote(spaceId)} on the server (\`quire spaces\` lists them)`);
    case 400:
      return new CliError(`the server refused the import: ${error.message}`);
    default:
      return new CliError(`import failed: ${error.message}`);
  }
}

function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.ceil(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
