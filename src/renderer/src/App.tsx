import { useEffect, useState } from 'react';
import type { AppInfo, QuireBridge } from '../../shared/app-info';

declare global {
  interface Window {
    quire?: QuireBridge;
  }
}

export function App() {
  const [info, setInfo] = useState<AppInfo | null>(null);
  useEffect(() => {
    void window.quire?.getAppInfo().then(setInfo);
  }, []);
  return (
    <main>
      <h1>Quire</h1>
      <p>{info ? `${info.name} ${info.version}` : 'Connecting to the sync engine…'}</p>
    </main>
  );
}
