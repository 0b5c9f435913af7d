import { useMemo } from 'react';
import type { ConnectionInfo } from '../../shared/contract/connection';
import { getBridge } from './bridge/get-bridge';
import { ErrorState } from './components/ErrorState';
import { BridgeContext } from './hooks/use-bridge';
import { useCommand } from './hooks/use-command';
import { useRoute } from './hooks/use-route';
import { useStatus } from './hooks/use-status';
import type { Route } from './model/route';
import { ActivityScreen } from './screens/ActivityScreen';
import { ChangeRequestScreen } from './screens/ChangeRequestScreen';
import { ConflictScreen } from './screens/ConflictScreen';
import { ConflictsScreen } from './screens/ConflictsScreen';
import { ConnectScreen, type ConnectDefaults } from './screens/ConnectScreen';
import { ProblemsScreen } from './screens/ProblemsScreen';
import { ReviewInboxScreen } from './screens/ReviewInboxScreen';
import { SettingsScreen } from './screens/SettingsScreen';
import { Shell } from './screens/Shell';
import { SpacesScreen } from './screens/SpacesScreen';

export function App() {
  const bridge = useMemo(() => getBridge(), []);
  return (
    <BridgeContext.Provider value={bridge}>
      <Connected />
    </BridgeContext.Provider>
  );
}

function defaultsOf(connection: ConnectionInfo): ConnectDefaults {
  return connection.state === 'new'
    ? { server: '', folder: '' }
    : { server: connection.server, folder: connection.folder };
}

/** The first-run form until a token is stored, then the app. */
function Connected() {
  const { state, reload } = useCommand('connection', {});
  const [route, navigate] = useRoute();
  if (state.status === 'loading')
    return <p className="first-run">Connecting to the sync engine…</p>;
  if (state.status === 'error')
    return (
      <main className="first-run" id="main">
        <ErrorState title="Quire could not start" message={state.error.message} onRetry={reload} />
      </main>
    );
  const connection = state.data;
  if (connection.state !== 'logged-in' || route.screen === 'connect')
    return (
      <ConnectScreen
        defaults={defaultsOf(connection)}
        canGoBack={connection.state === 'logged-in'}
        plainTextSecrets={connection.plainTextSecrets === true}
        onConnected={() => {
          navigate({ screen: 'spaces' });
          reload();
        }}
      />
    );
  return <Screens route={route} navigate={navigate} onSignedOut={reload} />;
}

function Screens({
  route,
  navigate,
  onSignedOut,
}: {
  route: Route;
  navigate: (route: Route) => void;
  onSignedOut: () => void;
}) {
  const status = useStatus();
  const snapshot = status.state.status === 'ready' ? status.state.data : null;
  return (
    <Shell route={route} status={snapshot} onStatusChanged={status.reload}>
      {status.state.status === 'error' ? (
        <ErrorState
          title="The sync status could not be read"
          message={status.state.error.message}
          onRetry={status.reload}
        />
      ) : null}
      {route.screen === 'review' ? <ReviewInboxScreen /> : null}
      {route.screen === 'change-request' ? (
        <ChangeRequestScreen space={route.space} number={route.number} view={route.view} />
      ) : null}
      {route.screen === 'conflicts' ? <ConflictsScreen /> : null}
      {route.screen === 'conflict' ? <ConflictScreen id={route.id} navigate={navigate} /> : null}
      {route.screen === 'problems' ? (
        <ProblemsScreen status={snapshot} onChanged={status.reload} />
      ) : null}
      {route.screen === 'activity' ? <ActivityScreen /> : null}
      {route.screen === 'settings' ? <SettingsScreen onSignedOut={onSignedOut} /> : null}
      {route.screen === 'spaces' || route.screen === 'connect' ? <SpacesScreen /> : null}
    </Shell>
  );
}
