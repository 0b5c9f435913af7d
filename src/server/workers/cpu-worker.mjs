// The worker thread's entry. The server runs from TypeScript sources (through tsx, or under vitest),
// so a worker registers tsx's loader before importing its handlers; a worker inherits no loader.
import { register } from 'tsx/esm/api';

register();
const handlers = await import('./cpu-worker-handler.ts');

export default handlers.runCpuTask;
