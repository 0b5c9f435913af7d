import { useCommand } from './use-command';

/** How many change requests wait for the user (0 while unknown), for the navigation's badge. */
export function useWaitingReviews(): number {
  const { state } = useCommand('changeRequests', {}, ['reviewChanged', 'run']);
  return state.status === 'ready'
    ? state.data.filter((item) => item.waitingForYou !== null).length
    : 0;
}
