import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { showNotification } from '@/lib/notify';
import type { EditorStore } from '../model/store';
import type { EditorNotice } from '../model/types';

const refusals: ReadonlyArray<EditorNotice['kind']> = ['inUse', 'edgeExists', 'polygonTooSmall', 'readOnly'];

/** Shows the editor's notices (moved, copied, deleted, refusals) as short notifications. */
export function useNotices(store: EditorStore): void {
  const { t } = useTranslation();
  useEffect(
    () =>
      store.onNotice((n) => {
        const message =
          n.kind === 'inUse'
            ? t('mapEditor.notices.inUse', { routes: n.routes.join(', ') })
            : 'count' in n
              ? t(`mapEditor.notices.${n.kind}`, { count: n.count })
              : t(`mapEditor.notices.${n.kind}`);
        showNotification({
          message,
          color: refusals.includes(n.kind) ? 'orange' : 'teal',
          autoClose: refusals.includes(n.kind) ? 5000 : 2000,
        });
      }),
    [store, t],
  );
}
