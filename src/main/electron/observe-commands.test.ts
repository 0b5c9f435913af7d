import { describe, expect, it, vi } from 'vitest';
import type { QuireCommandHandlers } from '../../shared/contract/quire-commands';
import { observeCommands } from './observe-commands';

describe('observeCommands', () => {
  it('calls through with the handlers as `this`, then reports the command', async () => {
    const after = vi.fn();
    class Handlers {
      version = '1.0.0';
      async appInfo() {
        return { name: 'Quire', version: this.version };
      }
      async logout(): Promise<never> {
        throw new Error('disk');
      }
    }
    const handlers = new Handlers() as unknown as QuireCommandHandlers;
    const observed = observeCommands(handlers, after);
    await expect(observed.appInfo({})).resolves.toEqual({ name: 'Quire', version: '1.0.0' });
    expect(after).toHaveBeenCalledWith('appInfo');
    await expect(observed.logout({})).rejects.toThrow('disk');
    expect(after).toHaveBeenCalledTimes(1);
  });
});
