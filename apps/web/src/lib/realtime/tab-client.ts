import { sessionStore } from '../session';
import { RealtimeClient, realtimeUrl } from './client';

/** The tab's client: follows the session (closed on logout, reconnected with a new token). */
export const realtime = new RealtimeClient({
  url: () => realtimeUrl(),
  token: () => sessionStore.get()?.token ?? null,
});

let lastToken = sessionStore.get()?.token ?? null;
sessionStore.subscribe(() => {
  const token = sessionStore.get()?.token ?? null;
  if (token === lastToken) return;
  lastToken = token;
  if (token === null) realtime.close();
  else realtime.restart();
});
