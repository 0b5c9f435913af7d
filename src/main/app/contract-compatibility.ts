/**
 * The contract (src/shared) restates a few unions the engine also declares, since the shared
 * layer imports nothing of the engine. These checks fail to compile the day the two disagree.
 */
import type { ConflictKind } from '../../shared/contract/conflicts';
import type { RefusedChangeKind } from '../../shared/contract/local-changes';
import type { SyncProblemKind, SyncProgress } from '../../shared/contract/sync-status';
import type { SyncProblemKind as EngineProblemKind } from '../cache/sync-problems';
import type { ConflictKind as EngineConflictKind } from '../conflicts/conflict-store';
import type { OutboxItem } from '../outbox/outbox-change';
import type { SyncProgress as EngineProgress } from '../sync-ports';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

const contractMatchesEngine: [
  Same<ConflictKind, EngineConflictKind>,
  Same<SyncProblemKind, EngineProblemKind>,
  Same<RefusedChangeKind, OutboxItem['kind']>,
  Same<SyncProgress, EngineProgress>,
] = [true, true, true, true];
void contractMatchesEngine;
