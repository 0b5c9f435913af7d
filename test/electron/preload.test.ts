import { describe, expect, it, vi } from 'vitest';
import type { QuireBridge } from '../../src/shared/contract/quire-bridge';

// The preload's only contact with Electron: what it exposes, and the IPC calls it makes.
const exposed = vi.hoisted(() => ({ worlds: new Map<string, unknown>() }));
const ipcRenderer = vi.hoisted(() => ({
  invoke: vi.fn(async () => ({ ok: true, result: null })),
  on: vi.fn(),
  off: vi.fn(),
}));
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.worlds.set(key, api) },
  ipcRenderer,
}));

await import('../../src/preload/index');

describe('the preload', () => {
  const bridge = exposed.worlds.get('quire') as QuireBridge;

  it('exposes only the typed bridge as window.quire', () => {
    expect([...exposed.worlds.keys()]).toEqual(['quire']);
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'on']);
  });

  it('sends a command on its channel, with its argument only', async () => {
    await bridge.invoke('setSpaceEnabled', { spaceId: 's1', enabled: false });
    expect(ipcRenderer.invoke).toHaveBeenCalledWith('quire:command:setSpaceEnabled', {
      spaceId: 's1',
      enabled: false,
    });
  });

  it('hands listeners the payload, never the IPC event, until unsubscribed', () => {
    const listener = vi.fn();
    const off = bridge.on('conflicts', listener);
    const [[channel, forward]] = ipcRenderer.on.mock.calls as unknown as [
      [string, (event: unknown, payload: unknown) => void],
    ];
    expect(channel).toBe('quire:event:conflicts');
    forward({ sender: 'ipc event' }, []);
    expect(listener).toHaveBeenCalledWith([]);
    off();
    expect(ipcRenderer.off).toHaveBeenCalledWith('quire:event:conflicts', forward);
  });
});
