import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { commandChannel, eventChannel, type QuireBridge } from '../shared/contract/quire-bridge';

// The renderer sees only this narrow, typed API; never ipcRenderer itself.
const bridge: QuireBridge = {
  invoke: (name, args) => ipcRenderer.invoke(commandChannel(name), args),
  on: (event, listener) => {
    const forward = (_event: IpcRendererEvent, payload: Parameters<typeof listener>[0]) =>
      listener(payload);
    ipcRenderer.on(eventChannel(event), forward);
    return () => {
      ipcRenderer.off(eventChannel(event), forward);
    };
  },
};

contextBridge.exposeInMainWorld('quire', bridge);
