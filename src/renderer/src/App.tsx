import { useEffect, useState } from 'react';
import type { QuireBridge } from '../../shared/contract/quire-bridge';
import type { AppInfo } from '../../shared/contract/quire-commands';

declare global {
  interface Window {
    quire?: QuireBridge;
  }
}

export function App() {
  const [info, setInfo] = useState<AppInfo | null>(null);
  useEffect(() => {
    void window.quire?.invoke('appInfo', {}).then((outcome) => {
      if (outcome.ok) setInfo(outcome.result);
    });
  }, []);
  return (
    <main>
      <h1>Quire</h1>
      <p>{info ? `${info.name} ${info.version}` : 'Connecting to the sync engine…'}</p>
    </main>
  );
}
