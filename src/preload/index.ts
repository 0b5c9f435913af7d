import { contextBridge, ipcRenderer } from 'electron';
import { BridgeChannel, type QuireBridge } from '../shared/app-info';

// The renderer sees only this narrow, typed API; never ipcRenderer itself.
const bridge: QuireBridge = {
  getAppInfo: () => ipcRenderer.invoke(BridgeChannel.getAppInfo),
};

contextBridge.exposeInMainWorld('quire', bridge);
