import { useCallback, useEffect, useRef, useState } from 'react';
import type { TeleopSession } from '../lib/teleop-session';

export type MicError = 'denied' | 'missing' | 'unavailable' | 'failed';

function micError(e: unknown): MicError {
  const name = e instanceof DOMException || e instanceof Error ? e.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'missing';
  return 'failed';
}

/**
 * Push-to-talk: while held, the microphone track goes out on the peer's audio sender; released, the
 * sender sends nothing. The microphone is opened on the first press (the browser asks once) and
 * kept until the screen closes, so later presses talk at once.
 */
export function usePushToTalk(session: TeleopSession, enabled: boolean) {
  const [talking, setTalking] = useState(false);
  const [error, setError] = useState<MicError | null>(null);
  const stream = useRef<MediaStream | null>(null);
  const wanted = useRef(false);

  const stop = useCallback(() => {
    wanted.current = false;
    setTalking(false);
    void session.setMicrophone(null).catch(() => undefined);
  }, [session]);

  const start = useCallback(async () => {
    if (!enabled || wanted.current) return;
    wanted.current = true;
    setError(null);
    if (!stream.current) {
      if (typeof navigator === 'undefined' || !navigator.mediaDevices?.getUserMedia) {
        wanted.current = false;
        setError('unavailable');
        return;
      }
      try {
        stream.current = await navigator.mediaDevices.getUserMedia({ audio: true, video: false });
      } catch (e) {
        wanted.current = false;
        setError(micError(e));
        return;
      }
    }
    // Released while the browser was asking: do not start talking afterwards.
    if (!wanted.current) return;
    const track = stream.current.getAudioTracks()[0] ?? null;
    if (!track) {
      setError('missing');
      return;
    }
    setTalking(true);
    try {
      await session.setMicrophone(track);
    } catch {
      setTalking(false);
      setError('failed');
    }
  }, [enabled, session]);

  useEffect(() => {
    if (!enabled && wanted.current) stop();
  }, [enabled, stop]);

  useEffect(
    () => () => {
      stream.current?.getTracks().forEach((t) => t.stop());
      stream.current = null;
    },
    [],
  );

  return { talking, error, start, stop };
}
