import { parseArgs } from 'node:util';
import type { RunOptions } from './bench-scenario';

export const BENCH_USAGE = `Usage: npm run bench:server -- [options]
  --duration <s>      seconds of measured load per server (default 10)
  --connections <n>   concurrent connections of the load rows (default 50; rows that name their
                      own, like the 1-connection latency row, keep it)
  --warmup <s>        seconds of unmeasured load before each measurement (default 2; 1 with --quick)
  --quick             3 s per measurement and fewer timed samples, for a fast check
  --only <text>       run only the scenarios whose name contains <text> (case-insensitive)
  -h, --help          this text`;

export interface BenchOptions extends RunOptions {
  only: string | undefined;
  help: boolean;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

function positive(flag: string, value: string | undefined, fallback: number, zeroOk = false) {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || (!zeroOk && n === 0))
    throw new UsageError(`--${flag} must be a ${zeroOk ? 'non-negative' : 'positive'} number`);
  return n;
}

export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        duration: { type: 'string' },
        connections: { type: 'string' },
        warmup: { type: 'string' },
        quick: { type: 'boolean', default: false },
        only: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const quick = values.quick === true;
  const connections = positive('connections', values.connections, 50);
  if (!Number.isInteger(connections)) throw new UsageError('--connections must be an integer');
  return {
    durationS: positive('duration', values.duration, quick ? 3 : 10),
    connections,
    warmupS: positive('warmup', values.warmup, quick ? 1 : 2, true),
    quick,
    only: values.only,
    help: values.help === true,
  };
}
