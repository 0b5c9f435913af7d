import path from 'node:path';
import { CommandFailedError } from '../../../shared/contract/command-error';
import type { SpaceList } from '../../../shared/contract/spaces';
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CliCommand } from '../cli-run';
import { describeError, onCommandError } from '../output/describe-error';
import { plural } from '../output/text';
import { terminalText } from '../terminal-text';

export const login: CliCommand = async (run, values, args) => {
  // A stray positional may well be the token typed without --token: never echo it.
  if (args.length > 0) throw new CliError('login takes no arguments besides options', EXIT_USAGE);
  const serverArg = values.server;
  const folderArg = values.folder;
  if (serverArg === undefined) throw new CliError('login needs --server <url>', EXIT_USAGE);
  if (folderArg === undefined) throw new CliError('login needs --folder <dir>', EXIT_USAGE);
  let token = values.token ?? (run.io.env['QUIRE_TOKEN'] || undefined);
  if (token === '-') token = (await run.io.readStdin()).trim();
  if (token === undefined || token === '') {
    throw new CliError(
      'login needs --token <token> (or --token - to read it from stdin)',
      EXIT_USAGE,
    );
  }
  run.secrets.add(token);

  const server = await run.app.checkServerUrl({ server: serverArg });
  if (server.cleartext) {
    run.warn(
      `warning: ${server.origin} is plain http, so the token crosses the network unencrypted`,
    );
  }
  const folder = path.resolve(run.io.cwd, folderArg);
  let result;
  try {
    result = await run.app.login({ server: serverArg, token, folder });
  } catch (error) {
    // Login's failures are said as they are: no "run `quire login`" hint to the one running it.
    if (!(error instanceof CommandFailedError)) throw error;
    const { kind, message } = error.error;
    throw new CliError(message, kind === 'invalid-argument' ? EXIT_USAGE : EXIT_FAILURE);
  }
  const { user } = result;
  const who = user.email ? `${user.displayName} <${user.email}>` : user.displayName;
  run.out(`Logged in to ${result.server} as ${terminalText(who)}.`);
  run.out(`Mirror folder: ${result.folder}`);
  for (const warning of result.warnings) run.warn(`warning: ${warning.message}`);

  let listed: SpaceList;
  try {
    // The engine's first listing enables every space when there are fewer than 20.
    listed = await run.app.listSpaces({});
  } catch (error) {
    throw new CliError(`logged in, but listing the spaces failed: ${describeError(error).message}`);
  }
  for (const error of listed.errors) run.warn(`warning: ${error}`);
  const enabled = listed.spaces.filter((s) => s.enabled).length;
  run.out(`${plural(listed.spaces.length, 'space')}, ${enabled} enabled.`);
  run.out(
    enabled > 0
      ? 'Run `quire sync --once` to pull them.'
      : 'Pick spaces with `quire spaces` and `quire spaces enable <spaceId>`.',
  );
  return EXIT_OK;
};

export const logout: CliCommand = async (run, _values, args) => {
  if (args.length > 0) throw new CliError('logout takes no arguments', EXIT_USAGE);
  const result = await run.app.logout({});
  if (!result.loggedOut) {
    run.out('Not logged in.');
    return EXIT_OK;
  }
  // The configuration and cache stay: pending local edits live there, and `quire status` still works.
  run.out(`Logged out of ${result.server}. The mirror folder ${result.folder} is left as it is.`);
  return EXIT_OK;
};

export const subject: CliCommand = async (run, values, args) => {
  const settings = await onCommandError(
    run.app.settings({}),
    'not-logged-in',
    () => new CliError('not logged in (run `quire login` first)'),
  );
  if (args.length > 1) throw new CliError('subject takes one argument (quote it)', EXIT_USAGE);
  const [text] = args;
  if (text === undefined && !values.reset) {
    run.out(
      settings.changeRequestSubject ?? `${settings.defaultChangeRequestSubject} (the default)`,
    );
    return EXIT_OK;
  }
  if (text !== undefined && values.reset) {
    throw new CliError('give a subject or --reset, not both', EXIT_USAGE);
  }
  if (text === undefined) {
    await run.app.updateSettings({ changeRequestSubject: null });
    run.out(
      `New working change requests will be titled "${settings.defaultChangeRequestSubject}".`,
    );
    return EXIT_OK;
  }
  const updated = await run.app.updateSettings({ changeRequestSubject: text });
  run.out(
    `New working change requests will be titled "${updated.changeRequestSubject ?? ''}". One already open keeps its subject (rename it on the server if you like: Quire keeps using it).`,
  );
  return EXIT_OK;
};
