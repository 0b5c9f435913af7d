import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChangeRequestStatus } from '@gitbook/api';
import fc from 'fast-check';
import { expect } from 'vitest';
import { openCacheDatabase, type CacheDb } from '../../../src/main/cache/open-cache-database';
import { WorkspaceChangeRequestRemote } from '../../../src/main/change-requests/workspace-change-request-remote';
import { WorkspaceClient } from '../../../src/main/remote/workspace-client';
import { SyncEngine } from '../../../src/main/sync/sync-engine';
import type { RemotePage } from '../../../src/main/sync-ports';
import type { TestServer } from '../../support/start-test-server';
import type { FetchFault } from '../fault-injecting-fetch';
import { readTree, treeAsText } from '../sync-test-kit';

/**
 * Change-request checkouts in the sync model (sync-model.property.test.ts): another user opens a
 * change request, the user checks it out, edits pages there, the other user edits it on the
 * server or merges it. The oracle: no edit made in a checkout is lost (it is in the change
 * request, on main once merged, in the outbox, or kept in its file and reported), and an open
 * checkout with nothing pending is what a fresh checkout of the change request writes.
 */

/** What the commands use of the model's system (its Real fits). */
export interface CheckoutSystem {
  spaceId: string;
  folder: string;
  cache: CacheDb;
  engine: SyncEngine;
  transport: { arm(faults: ReadonlyMap<number, FetchFault>): void };
  trace: string[];
}

export interface CheckoutModelServer {
  server: () => TestServer;
  /** The user's token (the engine's) and another user's. */
  me: string;
  other: string;
}

interface CheckoutState {
  crs: { id: string; number: number; merged: boolean }[];
  /** Checkout edits still current: marker → its line and change request number. */
  live: Map<string, { line: string; number: number }>;
  writes: number;
  remoteEdits: number;
}

const states = new WeakMap<object, CheckoutState>();

function stateOf(real: CheckoutSystem): CheckoutState {
  let state = states.get(real);
  if (state === undefined) {
    state = { crs: [], live: new Map(), writes: 0, remoteEdits: 0 };
    states.set(real, state);
  }
  return state;
}

type Cmd = fc.AsyncCommand<object, CheckoutSystem>;

/** The change request's folder, if the engine (this home) has it checked out. */
function folderOf(real: CheckoutSystem, number: number): string | undefined {
  return real.engine.checkouts().find((checkout) => checkout.number === number)?.folder;
}

function pageFilesOf(root: string): string[] {
  return [...readTree(root).keys()].filter(
    (path) => path.endsWith('.md') && path !== 'SUMMARY.md' && !path.startsWith('.'),
  );
}

function flatten(pages: readonly RemotePage[]): RemotePage[] {
  return pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);
}

/** The commands over one server; `commandArbs` takes `arbs`. */
export function checkoutModel(server: CheckoutModelServer) {
  const otherApi = () => server.server().client(server.other).spaces;

  async function changeRequestPages(real: CheckoutSystem, id: string): Promise<RemotePage[]> {
    const { data } = await otherApi().getChangeRequestById(real.spaceId, id);
    const client = new WorkspaceClient({ endpoint: server.server().url, token: server.other });
    const revision = (data as { revision: string }).revision;
    return flatten((await client.getRevision(real.spaceId, revision)).pages);
  }

  async function mainPages(real: CheckoutSystem): Promise<RemotePage[]> {
    const { data } = await otherApi().getSpaceById(real.spaceId);
    const client = new WorkspaceClient({ endpoint: server.server().url, token: server.other });
    const revision = (data as { revision: string }).revision;
    return flatten((await client.getRevision(real.spaceId, revision)).pages);
  }

  /** Another user opens a change request (a new page) and the user checks it out. */
  class CheckoutNew implements Cmd {
    check = () => true;
    async run(_: object, real: CheckoutSystem): Promise<void> {
      const state = stateOf(real);
      if (state.crs.length >= 3) return;
      const n = state.crs.length + 1;
      const { data: cr } = await otherApi().createChangeRequest(real.spaceId, {
        subject: `Proposal ${n}`,
      });
      await otherApi().updateChangeRequestContent(
        real.spaceId,
        cr.id,
        {
          changes: [
            { operation: 'insert_page', document: { markdown: `# Proposal${n}\n\nProposed.\n` } },
          ],
        },
        { compat: false },
      );
      await otherApi().updateChangeRequestById(real.spaceId, cr.id, {
        status: ChangeRequestStatus.Open,
      });
      state.crs.push({ id: cr.id, number: cr.number, merged: false });
      real.transport.arm(new Map());
      const checkout = await real.engine.checkout(real.spaceId, cr.number);
      real.trace.push(`checkout #${cr.number} → ${checkout.folder}`);
    }
    toString = () => 'checkout';
  }

  /** The open change requests; one is opened and checked out first when there is none. */
  async function openOnes(real: CheckoutSystem): Promise<CheckoutState['crs']> {
    const state = stateOf(real);
    if (!state.crs.some((cr) => !cr.merged)) await new CheckoutNew().run({}, real);
    return state.crs.filter((cr) => !cr.merged);
  }

  /** The user adds a line to a page of a checked-out change request. */
  class CheckoutEdit implements Cmd {
    constructor(
      readonly crPick: number,
      readonly pick: number,
    ) {}
    check = () => true;
    async run(_: object, real: CheckoutSystem): Promise<void> {
      const state = stateOf(real);
      const open = await openOnes(real);
      if (open.length === 0) return;
      const cr = open[this.crPick % open.length]!;
      const root = folderOf(real, cr.number);
      if (root === undefined) return;
      const files = pageFilesOf(root);
      if (files.length === 0) return;
      const path = files[this.pick % files.length]!;
      const marker = `c${++state.writes}`;
      const line = `Checkout edit ${marker}.`;
      const before = readFileSync(join(root, path), 'utf8');
      writeFileSync(join(root, path), `${before.trimEnd()}\n\n${line}\n`);
      state.live.set(marker, { line, number: cr.number });
      real.trace.push(`checkout #${cr.number} edit ${path} → ${marker}`);
    }
    toString = () => `checkout-edit(${this.crPick}, ${this.pick})`;
  }

  /** Another user adds a line to a page of the change request, on the server. */
  class CheckoutRemoteEdit implements Cmd {
    constructor(
      readonly crPick: number,
      readonly pick: number,
    ) {}
    check = () => true;
    async run(_: object, real: CheckoutSystem): Promise<void> {
      const state = stateOf(real);
      const open = await openOnes(real);
      if (open.length === 0) return;
      const cr = open[this.crPick % open.length]!;
      const pages = (await changeRequestPages(real, cr.id)).filter(
        (page) => page.type === 'document',
      );
      if (pages.length === 0) return;
      const page = pages[this.pick % pages.length]!;
      const line = `Remote checkout edit r${++state.remoteEdits}.`;
      const markdown = `${(page.markdown ?? '').trimEnd()}\n\n${line}\n`;
      await otherApi().updateChangeRequestContent(
        real.spaceId,
        cr.id,
        { changes: [{ operation: 'update_page', page: page.id, document: { markdown } }] },
        { compat: false },
      );
      real.trace.push(`remote edit of #${cr.number} ${page.id}: ${line}`);
    }
    toString = () => `checkout-remote-edit(${this.crPick}, ${this.pick})`;
  }

  /** Another user merges the change request; its checkout edits there are then delivered. */
  class CheckoutMerge implements Cmd {
    constructor(readonly crPick: number) {}
    check = () => true;
    async run(_: object, real: CheckoutSystem): Promise<void> {
      const state = stateOf(real);
      const open = await openOnes(real);
      if (open.length === 0) return;
      const cr = open[this.crPick % open.length]!;
      const before = (await changeRequestPages(real, cr.id)).map((page) => page.markdown ?? '');
      const { data } = await otherApi().mergeChangeRequest(real.spaceId, cr.id);
      const result = String((data as { result?: string }).result);
      real.trace.push(`merge #${cr.number}: ${result}`);
      if (result !== 'merge') return;
      cr.merged = true;
      // Delivered to main: later edits of main (anyone's) may replace them, as they may.
      for (const [marker, edit] of state.live) {
        if (before.some((markdown) => markdown.includes(edit.line))) state.live.delete(marker);
      }
    }
    toString = () => `checkout-merge(${this.crPick})`;
  }

  /**
   * The user edits a checked-out change request (after a synced edit, with `syncedFirst`) and
   * another user merges it before the edit is pushed: the pending edit must not be lost (it goes
   * to main's next push, or stays in its file, reported), and the folder is not removed under it.
   */
  class CheckoutEditThenMerge implements Cmd {
    constructor(
      readonly crPick: number,
      readonly pick: number,
      readonly syncedFirst: boolean,
    ) {}
    check = () => true;
    async run(model: object, real: CheckoutSystem): Promise<void> {
      if (this.syncedFirst) {
        await new CheckoutEdit(this.crPick, this.pick).run(model, real);
        real.transport.arm(new Map());
        await real.engine.syncOnce();
        real.trace.push('checkout sync');
      }
      await new CheckoutEdit(this.crPick, this.pick + 1).run(model, real);
      await new CheckoutMerge(this.crPick).run(model, real);
    }
    toString = () =>
      `checkout-edit-then-merge(${this.crPick}, ${this.pick}${this.syncedFirst ? ', synced first' : ''})`;
  }

  const arbs = [
    fc.constant(new CheckoutNew()),
    fc.tuple(fc.nat(), fc.nat()).map(([cr, pick]) => new CheckoutEdit(cr, pick)),
    fc.tuple(fc.nat(), fc.nat()).map(([cr, pick]) => new CheckoutRemoteEdit(cr, pick)),
    fc.nat().map((cr) => new CheckoutMerge(cr)),
    fc
      .tuple(fc.nat(), fc.nat(), fc.boolean())
      .map(([cr, pick, synced]) => new CheckoutEditThenMerge(cr, pick, synced)),
  ];

  /** Paths with a problem or an open conflict recorded for a checkout. */
  function reportedPaths(real: CheckoutSystem, key: string): Set<string> {
    const rows = real.cache
      .prepare(
        `SELECT path FROM sync_problems WHERE space_id = ?
         UNION SELECT path FROM conflicts WHERE space_id = ? AND resolved_at IS NULL`,
      )
      .all(key, key) as { path: string | null }[];
    return new Set(rows.flatMap((row) => (row.path === null ? [] : [row.path])));
  }

  /** Checks, after the model settled: no checkout edit lost; open checkouts converged. */
  async function checkCheckouts(real: CheckoutSystem): Promise<void> {
    const state = stateOf(real);
    if (state.crs.length === 0) return;
    const context = () => `\n${real.trace.join('\n')}`;
    const checkouts = real.engine.checkouts();
    const keys = new Map(
      (
        real.cache.prepare('SELECT key, number FROM checkouts').all() as {
          key: string;
          number: number;
        }[]
      ).map((row) => [row.number, row.key]),
    );
    const outbox = (real.cache.prepare('SELECT payload FROM outbox').all() as { payload: string }[])
      .map((row) => row.payload)
      .join('\n');
    const main = (await mainPages(real)).map((page) => page.markdown ?? '');
    const wholeTree = readTree(real.folder);
    for (const [marker, edit] of state.live) {
      const cr = state.crs.find((item) => item.number === edit.number)!;
      const inRequest = (await changeRequestPages(real, cr.id)).some((page) =>
        (page.markdown ?? '').includes(edit.line),
      );
      if (inRequest || main.some((markdown) => markdown.includes(edit.line))) continue;
      if (outbox.includes(edit.line)) continue;
      const checkout = checkouts.find((item) => item.number === edit.number);
      const key = keys.get(edit.number);
      const files = [...wholeTree].filter(([, bytes]) =>
        bytes.toString('utf8').includes(edit.line),
      );
      const kept =
        checkout === undefined || key === undefined
          ? // This home no longer knows the checkout (a fresh home): the file is still there.
            files.length > 0
          : checkout.closedWithPendingEdits
            ? files.length > 0
            : files.some(([path]) => {
                const relative = join(real.folder, path).slice(checkout.folder.length + 1);
                return reportedPaths(real, key).has(relative);
              });
      expect(
        kept,
        `checkout edit ${marker} of #${edit.number} is lost (in ${files.map(([p]) => p).join(', ') || 'no file'})` +
          `\ncheckouts: ${JSON.stringify(checkouts)}${context()}`,
      ).toBe(true);
    }
    for (const checkout of checkouts) {
      const key = keys.get(checkout.number)!;
      const quiet =
        checkout.status === 'open' &&
        checkout.pending === 0 &&
        reportedPaths(real, key).size === 0 &&
        (
          real.cache
            .prepare('SELECT count(*) AS n FROM sync_problems WHERE space_id = ?')
            .get(key) as {
            n: number;
          }
        ).n === 0;
      if (!quiet) continue;
      expect(
        treeAsText(readTree(checkout.folder)),
        `checkout #${checkout.number} does not match a fresh checkout${context()}`,
      ).toEqual(await freshCheckout(real, checkout.number));
    }
  }

  /** What a brand-new home writes when it checks the change request out. */
  async function freshCheckout(
    real: CheckoutSystem,
    number: number,
  ): Promise<Record<string, string>> {
    const home = mkdtempSync(join(tmpdir(), 'quire-prop-fresh-checkout-'));
    const cache = openCacheDatabase(join(home, 'cache.db'));
    try {
      mkdirSync(join(home, 'folder'));
      const client = new WorkspaceClient({ endpoint: server.server().url, token: server.me });
      const engine = new SyncEngine({
        cache,
        remote: client,
        folder: join(home, 'folder'),
        clock: { now: () => new Date() },
        changeRequests: { remote: new WorkspaceChangeRequestRemote(client) },
      });
      await engine.refreshSpaces();
      const checkout = await engine.checkout(real.spaceId, number);
      return treeAsText(readTree(checkout.folder));
    } finally {
      cache.close();
      rmSync(home, { recursive: true, force: true });
    }
  }

  return { arbs, checkCheckouts };
}
