/**
 * The engine takes its unions from the contract (src/shared), except the refused-change kind,
 * which the outbox derives from its change types: this check fails to compile the day the
 * contract's copy and the outbox's disagree.
 */
import type { RefusedChangeKind } from '../../shared/contract/local-changes';
import type { OutboxItem } from '../outbox/outbox-change';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

const contractMatchesEngine: [Same<RefusedChangeKind, OutboxItem['kind']>] = [true];
void contractMatchesEngine;
