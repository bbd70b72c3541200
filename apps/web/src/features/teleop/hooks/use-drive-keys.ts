import { useEffect, useRef } from 'react';
import { isActivatable, isTextEntry, ownsArrowKeys, TALK_KEY } from '../lib/control-input';
import type { TeleopSession } from '../lib/teleop-session';

interface DriveKeysOptions {
  /** Drive keys count only for the controller. */
  driving: boolean;
  /** Hold M: push-to-talk. */
  onTalk?: (talking: boolean) => void;
}

/**
 * The keyboard on the operator screen: W/A/S/D and arrows drive while held, Space stops at once, M
 * talks while held. Keys typed into a form field are left alone; leaving the window (blur, hidden
 * tab) lets go of every key.
 */
export function useDriveKeys(session: TeleopSession, { driving, onTalk }: DriveKeysOptions): void {
  const talkRef = useRef(onTalk);
  useEffect(() => {
    talkRef.current = onTalk;
  });

  useEffect(() => {
    const input = session.input;
    let talking = false;
    const stopTalking = () => {
      if (!talking) return;
      talking = false;
      talkRef.current?.(false);
    };
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || isTextEntry(e.target)) return;
      if (e.code === TALK_KEY) {
        if (!e.repeat && !talking && talkRef.current) {
          talking = true;
          talkRef.current(true);
        }
        return;
      }
      if (!driving) return;
      if (e.code.startsWith('Arrow') && ownsArrowKeys(e.target)) return;
      const kind = input.keyDown(e.code, e.repeat);
      if (kind === 'stop') {
        session.sendControl();
        // Space still presses a focused button; elsewhere it would scroll the page.
        if (!isActivatable(e.target)) e.preventDefault();
      } else if (kind === 'drive') e.preventDefault();
    };
    const onKeyUp = (e: KeyboardEvent) => {
      if (e.code === TALK_KEY) {
        stopTalking();
        return;
      }
      input.keyUp(e.code);
    };
    const releaseAll = () => {
      input.releaseAll();
      stopTalking();
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') releaseAll();
    };
    window.addEventListener('keydown', onKeyDown);
    window.addEventListener('keyup', onKeyUp);
    window.addEventListener('blur', releaseAll);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('keydown', onKeyDown);
      window.removeEventListener('keyup', onKeyUp);
      window.removeEventListener('blur', releaseAll);
      document.removeEventListener('visibilitychange', onVisibility);
      releaseAll();
    };
  }, [session, driving]);
}
