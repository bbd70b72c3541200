import { useCallback } from 'react';
import { auditEn } from '@/locales/en/audit';
import { auditJa } from '@/locales/ja/audit';
import { useFormat } from './format';

export type AuditLabelGroup = 'actions' | 'targetTypes';

/**
 * Labels of audit codes (`operator.lock`, `notif-target`) in the screen's language; a code this
 * version has no label for (a newer server) is shown as it is.
 */
export function useAuditLabel(): (group: AuditLabelGroup, code: string | null) => string {
  const { lang } = useFormat();
  return useCallback(
    (group, code) => {
      if (code === null) return '';
      const labels = lang === 'ja' ? auditJa : auditEn;
      return Object.hasOwn(labels[group], code) ? (labels[group][code] ?? code) : code;
    },
    [lang],
  );
}
