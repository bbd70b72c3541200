import type { ExportColumn } from '@portal/contract';
import type { Lang } from '../../lib/language.ts';

/**
 * The words of an export file, in the exporter's language (as the server's mails are: lib/language.ts):
 * the header row and the codes written as words. The codes' words are those of the report screens
 * (apps/web/src/locales/{ja,en}/reports.ts), so a file reads as the screen does.
 */
export interface ExportTexts {
  columns: Record<ExportColumn, string>;
  reportTypes: Record<string, string>;
  results: Record<string, string>;
  detailTypes: Record<string, string>;
  callers: Record<string, string>;
  /** A detail's values (reportDetailSchema.values) in words: the labels of the known keys, the levels and cameras. */
  values: {
    labels: Record<string, string>;
    levels: Record<string, string>;
    cameras: Record<string, string>;
    yes: string;
    no: string;
  };
  /** The sheet of a workbook made without a template. */
  sheetName: string;
}

const ja: ExportTexts = {
  columns: {
    reportId: 'レポートID',
    reportType: 'レポート種別',
    buildingName: 'ビル',
    floorName: 'フロア',
    robotName: 'ロボット',
    robotSerial: 'シリアル番号',
    flowName: 'フロー',
    caller: '実行元',
    reportStartedAt: '開始日時',
    reportEndedAt: '終了日時',
    reportResult: 'レポート結果',
    seq: '連番',
    detailType: '明細種別',
    stepKind: 'ステップ',
    detailResult: '明細結果',
    detailStartedAt: '明細開始日時',
    detailEndedAt: '明細終了日時',
    errorCode: 'エラーコード',
    message: 'メッセージ',
    values: '値',
    photo: '写真',
  },
  reportTypes: { '0': '巡回', '1': '警備', '30': '清掃' },
  results: {
    '0': '正常',
    '1': '異常',
    '4': 'デバイスなし',
    '9': 'エラー',
    '10': '完了',
    '11': '一部完了',
    '12': 'キャンセル',
  },
  detailTypes: {
    '0': '移動',
    '1': '撮影',
    '2': 'メーター読み取り',
    '3': '点検',
    '11': 'タスク開始',
    '12': 'タスクイベント',
    '13': 'タスク完了',
    '20': '通知',
    '30': 'フロア移動 / セキュリティドア',
    '50': 'ロボット設定',
    '51': 'コマンド / 作業計画',
  },
  callers: { schedule: 'スケジュール', operator: 'オペレーター', trigger: 'トリガー' },
  values: {
    labels: {
      waypoint: '地点',
      route: 'ルート',
      floor: 'フロア',
      camera: 'カメラ',
      task: 'タスク',
      level: 'レベル',
      targets: '通知先',
      seconds: '待機秒数',
      detected: '人検知',
      door: 'ドア',
      phase: 'フェーズ',
      resumed: '再開',
      checkItem: '点検項目',
      reading: '読み取り値',
      qr: 'QRコード',
      breachLog: 'しきい値ログ',
    },
    levels: { '0': '情報', '5': '警告', '9': '緊急' },
    cameras: { v1: '前方', v2: '後方', v3: '前方広角', s1: '側面', g1: 'ジンバル', thermal: 'サーマル' },
    yes: 'はい',
    no: 'いいえ',
  },
  sheetName: 'RawData',
};

const en: ExportTexts = {
  columns: {
    reportId: 'Report ID',
    reportType: 'Report type',
    buildingName: 'Building',
    floorName: 'Floor',
    robotName: 'Robot',
    robotSerial: 'Serial number',
    flowName: 'Flow',
    caller: 'Started by',
    reportStartedAt: 'Started at',
    reportEndedAt: 'Ended at',
    reportResult: 'Report result',
    seq: 'No.',
    detailType: 'Detail type',
    stepKind: 'Step',
    detailResult: 'Detail result',
    detailStartedAt: 'Detail started at',
    detailEndedAt: 'Detail ended at',
    errorCode: 'Error code',
    message: 'Message',
    values: 'Values',
    photo: 'Photo',
  },
  reportTypes: { '0': 'Patrol', '1': 'Sentry', '30': 'Cleaning' },
  results: {
    '0': 'Normal',
    '1': 'Abnormal',
    '4': 'Device not found',
    '9': 'Error',
    '10': 'Complete',
    '11': 'Partial',
    '12': 'Cancelled',
  },
  detailTypes: {
    '0': 'Movement',
    '1': 'Photo',
    '2': 'Meter reading',
    '3': 'Check',
    '11': 'Task start',
    '12': 'Task event',
    '13': 'Task complete',
    '20': 'Notification',
    '30': 'Floor change / security door',
    '50': 'Robot setting',
    '51': 'Command / work plan',
  },
  callers: { schedule: 'Schedule', operator: 'Operator', trigger: 'Trigger' },
  values: {
    labels: {
      waypoint: 'Waypoint',
      route: 'Route',
      floor: 'Floor',
      camera: 'Camera',
      task: 'Task',
      level: 'Level',
      targets: 'Recipients',
      seconds: 'Wait (s)',
      detected: 'Person detected',
      door: 'Door',
      phase: 'Phase',
      resumed: 'Resumed',
      checkItem: 'Check item',
      reading: 'Reading',
      qr: 'QR code',
      breachLog: 'Threshold log',
    },
    levels: { '0': 'Information', '5': 'Warning', '9': 'Emergency' },
    cameras: { v1: 'Front', v2: 'Rear', v3: 'Front wide', s1: 'Side', g1: 'Gimbal', thermal: 'Thermal' },
    yes: 'Yes',
    no: 'No',
  },
  sheetName: 'RawData',
};

type Values = Record<string, string | number | boolean | null>;

/**
 * Keys a detail's other values already say: a name copied with the report stands for its id, a
 * reading's unit is written after its value, and a meter check's own `result` is the detail's result.
 */
const shownElsewhere = (k: string, values: Values): boolean =>
  (k === 'waypointId' && !!values.waypointName) ||
  (k === 'floorId' && !!values.floorName) ||
  (k === 'checkItemId' && !!values.checkItemName) ||
  (k === 'unit' && values.value !== null && values.value !== undefined) ||
  (k === 'result' && 'checkItemId' in values);

/**
 * A detail's values in words, as the report screen shows them (apps/web/src/features/reports/words.tsx
 * `valueEntries`): a name written with the report stands for its id (`waypointName` for `waypointId`,
 * `checkItemName` for `checkItemId`), known keys get their label and value words (a meter reading
 * with its unit, the threshold log line's number), unknown keys stay as they are; null, empty and the
 * detail's message repeated are left out. "Waypoint: Entrance, Task: 夜間点検".
 */
export function valuesInWords(texts: ExportTexts, values: Values, message?: string | null): string {
  const v = texts.values;
  const out: string[] = [];
  for (const [k, raw] of Object.entries(values)) {
    if (raw === null || raw === '' || raw === message) continue;
    if (shownElsewhere(k, values)) continue;
    const label = VALUE_KEYS[k];
    if (!label) {
      out.push(`${k}: ${String(raw)}`);
      continue;
    }
    let word = typeof raw === 'boolean' ? (raw ? v.yes : v.no) : String(raw);
    if (k === 'level') word = v.levels[word] ?? word;
    if (k === 'camera') word = v.cameras[word] ?? word;
    if (k === 'value' && typeof values.unit === 'string' && values.unit !== '') word = `${word} ${values.unit}`;
    if (k === 'breachLogId') word = `#${word}`;
    out.push(`${v.labels[label] ?? label}: ${word}`);
  }
  return out.join(', ');
}

/** The known keys of a detail's values and the label each is shown under. */
export const VALUE_KEYS: Record<string, string> = {
  waypointName: 'waypoint',
  waypointId: 'waypoint',
  routeName: 'route',
  floorName: 'floor',
  floorId: 'floor',
  camera: 'camera',
  task: 'task',
  level: 'level',
  targets: 'targets',
  seconds: 'seconds',
  detected: 'detected',
  door: 'door',
  phase: 'phase',
  resumed: 'resumed',
  checkItemName: 'checkItem',
  checkItemId: 'checkItem',
  value: 'reading',
  qr: 'qr',
  breachLogId: 'breachLog',
};

export const exportTexts = (lang: Lang): ExportTexts => (lang === 'en' ? en : ja);
