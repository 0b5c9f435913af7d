import { availableParallelism } from 'node:os';
import { DEFAULT_CPU_BUDGET_MS } from './workers/cpu-pool';
/** Everything the server's behaviour depends on that an operator may change. */
export interface ServerConfig {
  /** Absolute base URL used to build every `urls` field (no trailing slash). */
  publicUrl: string;
  /** Requests allowed per token (or per address when unauthenticated) in one window. */
  rateLimitMax: number;
  rateLimitWindowMs: number;
  /** Largest accepted request body in bytes; larger bodies answer 413. */
  bodyLimit: number;
  /** Whether content import may fetch loopback, private and link-local addresses. */
  allowPrivateUrls: boolean;
  /** How long a deleted space can be restored before the sweep removes it for good. */
  trashRetentionMs: number;
  /** How often the background sweep runs; 0 disables the timer (tests call sweep directly). */
  sweepIntervalMs: number;
  /** Longest one CPU-heavy job (documents, links, PDF, import, search sections) may take. */
  cpuJobBudgetMs: number;
  /** Worker threads for CPU-heavy jobs. */
  cpuThreads: number;
  /** Worker threads started with the server (tests that never need one say 0). */
  cpuWarmThreads: number;
  /** The CPU workers' entry (file URL) when not the TypeScript sources (a bundled build). */
  cpuWorkerFile?: string;
}

export const DAY_MS = 24 * 60 * 60 * 1000;

export function defaultConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  return {
    publicUrl: 'http://127.0.0.1:8080',
    rateLimitMax: 1200,
    rateLimitWindowMs: 60_000,
    bodyLimit: 10 * 1024 * 1024,
    allowPrivateUrls: false,
    trashRetentionMs: 7 * DAY_MS,
    sweepIntervalMs: 60 * 60 * 1000,
    cpuJobBudgetMs: DEFAULT_CPU_BUDGET_MS,
    cpuThreads: Math.max(1, Math.min(4, availableParallelism())),
    cpuWarmThreads: 1,
    ...overrides,
  };
}
