import type { Clock } from './clock';
import type { ServerConfig } from './config';
import type { Db } from './db/open-database';
import type { Access } from './auth/access';
import type { VisitorClaimsSigner } from './auth/visitor-claims-signer';
import type { FastReads } from './http/fast-reads';
import type { Urls } from './http/urls';
import type { CpuPool } from './workers/cpu-pool';
import type { MarkdownJobs } from './workers/markdown-jobs';

/** What every resource module is built from; nothing global, so tests can build many servers. */
export interface ServerContext {
  db: Db;
  clock: Clock;
  config: ServerConfig;
  access: Access;
  urls: Urls;
  /** Signs the `ping` operation's visitor claims; its public key is served as a JWKS. */
  visitorClaims: VisitorClaimsSigner;
  /** Reads answered before Fastify's pipeline when they succeed (see FastReads). */
  fastReads: FastReads;
  /** Worker threads for CPU-heavy jobs: nothing slow runs on the event loop. */
  cpu: CpuPool;
  /** Documents and links of Markdown bodies, computed on `cpu` and cached per body. */
  markdown: MarkdownJobs;
}
