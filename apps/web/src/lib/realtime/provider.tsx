import { createContext, useContext, type ReactNode } from 'react';
import type { Realtime } from './client';
import { realtime } from './tab-client';

/** The realtime client screens use: the tab's own unless a provider says otherwise. */
const RealtimeContext = createContext<Realtime>(realtime);

/** Gives the components below another realtime client (component tests: a `FakeRealtime`). */
export function RealtimeProvider({ client, children }: { client: Realtime; children: ReactNode }) {
  return <RealtimeContext.Provider value={client}>{children}</RealtimeContext.Provider>;
}

/** The realtime client of this part of the tree. */
export function useRealtime(): Realtime {
  return useContext(RealtimeContext);
}
