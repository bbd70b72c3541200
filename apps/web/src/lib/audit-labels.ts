import { useCallback } from 'react';
import { auditEn } from '@/locales/en/audit';
import { auditJa } from '@/locales/ja/audit';
import { useFormat } from './format';

export type AuditLabelGroup = 'actions' | 'targetTypes';

/** What the audit lists show of an entry's target. */
export interface AuditTargetFields {
  targetType: string | null;
  targetId: string | null;
  targetName: string | null;
}

const labelsOf = (lang: string) => (lang === 'ja' ? auditJa : auditEn);

/**
 * Labels of audit codes (`operator.lock`, `notif-target`) in the screen's language; a code this
 * version has no label for (a newer server) is shown as it is.
 */
export function useAuditLabel(): (group: AuditLabelGroup, code: string | null) => string {
  const { lang } = useFormat();
  return useCallback(
    (group, code) => {
      if (code === null) return '';
      const labels: Record<string, string> = labelsOf(lang)[group];
      return Object.hasOwn(labels, code) ? (labels[code] ?? code) : code;
    },
    [lang],
  );
}

/**
 * An entry's target in words: its type and its name ("オペレーター：山田 太郎"), the name as the
 * server recorded it. Term documents read as their kind and version ("利用規約 1.0"); a target
 * without a known name falls back to its number ("ビル #4").
 */
export function useAuditTarget(): (e: AuditTargetFields) => string {
  const { lang } = useFormat();
  const label = useAuditLabel();
  return useCallback(
    (e) => {
      if (e.targetType === null) return e.targetName ?? '';
      const labels = labelsOf(lang);
      const type = label('targetTypes', e.targetType);
      let name = e.targetName;
      if (name !== null && e.targetType === 'term-document') {
        const m = /^(TOS|PP|MC) (.+)$/.exec(name);
        if (m) name = `${labels.termKinds[m[1] as 'TOS' | 'PP' | 'MC']} ${m[2]}`;
      }
      if (name !== null && name !== '') return labels.target(type, name);
      return e.targetId === null ? type : `${type} #${e.targetId}`;
    },
    [lang, label],
  );
}
