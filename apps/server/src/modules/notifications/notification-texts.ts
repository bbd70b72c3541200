import { LOW_BATTERY_PERCENT } from '@portal/contract';

/** The events the engine notifies (docs/notifications.md "Events"). */
export const NOTIFICATION_KINDS = [
  'thresholdBreach',
  'taskEvent',
  'lowBattery',
  'emergencyStop',
  'hardwareError',
  'flowRunFailed',
  'scheduleFailed',
  'robotOffline',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Notification levels (spec section 9): 0 information, 5 warning, 9 emergency. */
export type NotificationLevel = 0 | 5 | 9;

/** The level of each kind when the caller gives none. */
export const DEFAULT_LEVEL: Record<NotificationKind, NotificationLevel> = {
  thresholdBreach: 5,
  taskEvent: 0,
  lowBattery: 9,
  emergencyStop: 9,
  hardwareError: 9,
  flowRunFailed: 5,
  scheduleFailed: 5,
  robotOffline: 5,
};

/** What an event's message shows, taken when it happened (stored as the event's params). */
export interface EventParams {
  robotName?: string | null;
  serialNo?: string | null;
  buildingName?: string | null;
  floorName?: string | null;
  /** IANA zone of the building (default Asia/Tokyo). */
  timeZone?: string;
  /** The caller's own text (task event, threshold rule). */
  message?: string | null;
  /** Kind-specific details (percent, errorType, flowName, runId, reason, minutes, ruleName, value...). */
  details?: Record<string, string | number | boolean | null>;
}

export interface TextEvent {
  kind: string;
  level: number;
  robotId: number | null;
  buildingId: number | null;
  occurredAt: string;
  params: EventParams;
}

const TITLES: Record<NotificationKind, { ja: string; en: string }> = {
  thresholdBreach: { ja: 'しきい値超過', en: 'Threshold breached' },
  taskEvent: { ja: 'タスクイベント', en: 'Task event' },
  lowBattery: { ja: 'バッテリー残量低下', en: 'Low battery' },
  emergencyStop: { ja: '非常停止', en: 'Emergency stop' },
  hardwareError: { ja: 'ハードウェアエラー', en: 'Hardware error' },
  flowRunFailed: { ja: 'フロー実行失敗', en: 'Flow run failed' },
  scheduleFailed: { ja: 'スケジュール実行失敗', en: 'Scheduled run failed' },
  robotOffline: { ja: 'ロボットオフライン', en: 'Robot offline' },
};

const LEVELS: Record<number, { ja: string; en: string }> = {
  0: { ja: '情報', en: 'Information' },
  5: { ja: '警告', en: 'Warning' },
  9: { ja: '緊急', en: 'Emergency' },
};

const levelLabel = (level: number) => LEVELS[level >= 9 ? 9 : level >= 5 ? 5 : 0]!;

const titleOf = (kind: string) => TITLES[kind as NotificationKind] ?? { ja: kind, en: kind };

/** `YYYY/MM/DD HH:mm:ss` (ja) or `YYYY-MM-DD HH:mm:ss` (en) in the zone, with the zone's name. */
export function localTime(iso: string, timeZone: string, lang: 'ja' | 'en'): string {
  const d = new Date(iso);
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(d);
  } catch {
    return `${iso} (UTC)`;
  }
  const p = (t: string) => parts.find((x) => x.type === t)?.value ?? '';
  const sep = lang === 'ja' ? '/' : '-';
  return `${p('year')}${sep}${p('month')}${sep}${p('day')} ${p('hour')}:${p('minute')}:${p('second')} (${timeZone})`;
}

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** The kind-specific sentence of one event. */
function detail(e: TextEvent, lang: 'ja' | 'en'): string {
  const d = e.params.details ?? {};
  const msg = e.params.message ? str(e.params.message) : '';
  const ja = lang === 'ja';
  switch (e.kind) {
    case 'lowBattery':
      return ja
        ? `バッテリー残量 ${str(d.percent)}%（${LOW_BATTERY_PERCENT}% 未満）`
        : `battery at ${str(d.percent)} % (below ${LOW_BATTERY_PERCENT} %)`;
    case 'emergencyStop':
      return ja ? '非常停止が押されました' : 'the emergency stop was pressed';
    case 'hardwareError':
      return `${str(d.errorType)}${d.description ? `: ${str(d.description)}` : ''}`;
    case 'flowRunFailed': {
      const code = d.errorCode ? ` (${str(d.errorCode)})` : '';
      const why = d.reason ? `: ${str(d.reason)}` : '';
      return ja
        ? `フロー「${str(d.flowName)}」が失敗しました${code}${why}`
        : `flow "${str(d.flowName)}" failed${code}${why}`;
    }
    case 'scheduleFailed':
      return ja
        ? `スケジュール「${str(d.title)}」の実行が失敗しました（${str(d.reason)}）`
        : `the scheduled run "${str(d.title)}" failed (${str(d.reason)})`;
    case 'robotOffline':
      return ja ? `${str(d.minutes)} 分以上オフラインです` : `offline for more than ${str(d.minutes)} min`;
    case 'thresholdBreach': {
      const what = `${str(d.ruleName)}${d.checkItemName ? ` / ${str(d.checkItemName)}` : ''}${
        d.value !== undefined && d.value !== null ? ` = ${str(d.value)}` : ''
      }`;
      return [what, msg].filter((x) => x !== '').join(' — ');
    }
    case 'taskEvent': {
      const task = d.task ? `[${str(d.task)}] ` : '';
      return `${task}${msg}`;
    }
    default:
      return msg;
  }
}

/** One line of the message: when, where, which robot, what. */
function line(e: TextEvent, lang: 'ja' | 'en'): string {
  const p = e.params;
  const when = localTime(e.occurredAt, p.timeZone ?? 'Asia/Tokyo', lang);
  const where = [p.buildingName, p.floorName].filter((x) => x).join(' ');
  const robot = p.robotName
    ? lang === 'ja'
      ? `${p.robotName}（シリアル番号 ${str(p.serialNo)}）`
      : `${p.robotName} (serial ${str(p.serialNo)})`
    : '';
  return `- ${[when, where, robot].filter((x) => x).join(' / ')}: ${detail(e, lang)}`;
}

/** A link into the portal for the events (the robot's page when all name one robot). */
export function linkOf(events: TextEvent[], publicUrl: string | null): string | null {
  if (!publicUrl) return null;
  const base = publicUrl.replace(/\/+$/, '');
  const robots = new Set(events.map((e) => e.robotId));
  const kinds = new Set(events.map((e) => e.kind));
  if (kinds.size === 1 && kinds.has('thresholdBreach')) return `${base}/threshold/log/1`;
  const [only] = [...robots];
  if (robots.size === 1 && only !== null && only !== undefined) return `${base}/robot/${only}`;
  return `${base}/robot/control`;
}

export type MessageLanguage = 'ja' | 'en';

/** The subject and body of a delivery's events in one language. */
function textIn(
  events: TextEvent[],
  publicUrl: string | null,
  lang: MessageLanguage,
): { subject: string; body: string } {
  const first = events[0]!;
  const level = Math.max(...events.map((e) => e.level));
  const t = titleOf(first.kind)[lang];
  const lv = levelLabel(level)[lang];
  const robots = new Set(events.filter((e) => e.robotId !== null).map((e) => e.robotId)).size;
  const ja = lang === 'ja';
  const count =
    events.length > 1
      ? robots > 1
        ? ja
          ? `（${robots}台）`
          : ` (${robots} robots)`
        : ja
          ? `（${events.length}件）`
          : ` (${events.length} events)`
      : '';
  const subject = ja ? `【ロボットポータル】[${lv}] ${t}${count}` : `[Robot Portal] [${lv}] ${t}${count}`;
  const link = linkOf(events, publicUrl);
  const body = [
    ja ? `${t}（${lv}）` : `${t} (${lv})`,
    ...events.map((e) => line(e, lang)),
    ...(link ? [ja ? `ポータルで確認: ${link}` : `Open in the portal: ${link}`] : []),
  ].join('\n');
  return { subject, body };
}

const capSubject = (subject: string) => (subject.length > 250 ? `${subject.slice(0, 249)}…` : subject);

/**
 * The message of a delivery: the events of one cause for one recipient, in the recipient's
 * language (a notification target's `language`); times are in each event's building's time zone.
 * Without a language (webhooks: their receivers have none) the text is Japanese first, then English.
 */
export function notificationText(
  events: TextEvent[],
  publicUrl: string | null,
  lang?: MessageLanguage,
): { subject: string; body: string } {
  if (lang) {
    const one = textIn(events, publicUrl, lang);
    return { subject: capSubject(one.subject), body: `${one.body}\n` };
  }
  const ja = textIn(events, publicUrl, 'ja');
  const en = textIn(events, publicUrl, 'en');
  return { subject: capSubject(`${ja.subject} / ${en.subject}`), body: `${ja.body}\n\n----\n\n${en.body}\n` };
}
