import { isAdmin, robotTopic, type RobotLive, type RobotTeleop, type RobotTeleopInfo } from '@portal/contract';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { showNotification } from '@/lib/notify';
import { useFleet } from '@/lib/realtime';
import { useSession } from '@/lib/session';
import { teleopState } from '../lib/teleop-state';
import type { TeleopSession, TeleopSnapshot } from '../lib/teleop-session';
import { useRobotBySerial } from '../api/get-robot-by-serial';
import { useTeleopErrorText } from './use-teleop-error-text';
import { useTeleopSession, type UseTeleopSessionOptions } from './use-teleop-session';

export type BadgeState = ReturnType<typeof teleopState> | 'offline';

export interface OperatorState {
  session: TeleopSession;
  snap: TeleopSnapshot;
  live: RobotLive | null;
  info: RobotTeleopInfo;
  online: boolean;
  badge: BadgeState;
  /** This screen drives the robot: controller, robot online, peer up. */
  canDrive: boolean;
  /** Robot features (speech, photo, lights...) may be used: nobody else has the controls. */
  canAct: boolean;
  admin: boolean;
  operatorId: number | null;
}

/**
 * What both operator screens share: the session, the robot's live state (topic `robot:{id}`), the
 * derived flags, the controller notices, and a new session when an offline robot comes back.
 */
export function useOperator(
  teleop: RobotTeleop,
  want: 'control' | 'watch',
  options: UseTeleopSessionOptions = {},
): OperatorState {
  const { t } = useTranslation();
  const account = useSession();
  const errorText = useTeleopErrorText();
  const { session, snapshot: snap } = useTeleopSession(teleop.robotId, want, options);
  const fleet = useFleet(robotTopic(teleop.robotId), { poses: false });
  const live = fleet.robots.get(teleop.robotId)?.live ?? null;
  const online = live ? live.online : true;
  const info = live?.teleop ?? teleop.info;

  // Notices are told once, as notifications (the controls panel keeps the last one visible).
  const told = useRef(0);
  useEffect(() => {
    const n = snap.notice;
    if (!n || n.id === told.current) return;
    told.current = n.id;
    if (n.kind === 'takenOver')
      showNotification({
        color: 'orange',
        autoClose: 8000,
        message: n.by ? t('teleopScreen.lock.takenOver', { by: n.by }) : t('teleopScreen.lock.takenOverUnknown'),
      });
    else if (n.kind === 'granted') showNotification({ color: 'teal', message: t('teleopScreen.lock.granted') });
    else
      showNotification({
        color: 'red',
        message: t('teleopScreen.lock.refused', { reason: errorText(n.code, n.message) }),
      });
  }, [snap.notice, t, errorText]);

  // The robot's registered video setting (robot settings) applies when a controller's video starts;
  // the operator may change it for the session afterwards.
  const registered = useRobotBySerial(teleop.serialNo).data?.videoMode;
  const videoSetFor = useRef<string | null>(null);
  const status = snap.peerStatus;
  useEffect(() => {
    if (!registered || !status || snap.role !== 'controller' || !snap.sessionId) return;
    if (videoSetFor.current === snap.sessionId) return;
    videoSetFor.current = snap.sessionId;
    if (status.video !== registered) session.sendCommand({ type: 'video', mode: registered });
  }, [registered, status, snap.role, snap.sessionId, session]);

  // An offline robot that comes back gets a new session (the old one ended with it).
  const wasOnline = useRef(online);
  useEffect(() => {
    const back = online && !wasOnline.current;
    wasOnline.current = online;
    if (!back) return;
    const ended =
      (snap.phase === 'closed' && snap.closedReason === 'robotOffline') ||
      (snap.phase === 'failed' && snap.error?.code === 'ROBOT_OFFLINE');
    if (ended) session.reconnect();
  }, [online, snap.phase, snap.closedReason, snap.error, session]);

  const connected = snap.phase === 'connected';
  const controller = snap.phase === 'waiting' || snap.phase === 'joining' ? teleop.controller : snap.controller;
  return {
    session,
    snap: { ...snap, controller },
    live,
    info,
    online,
    badge: online ? teleopState(connected, live) : 'offline',
    canDrive: online && connected && snap.role === 'controller',
    canAct: online && (snap.role === 'controller' || controller === null),
    admin: account ? isAdmin(account.type) : false,
    operatorId: account?.id ?? null,
  };
}
