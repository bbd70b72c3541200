import type { ErrorDetail, FloorMap } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/lib/api-client';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { queryKeys } from '@/lib/query-keys';
import { getFloorMap } from '../api/get-floor-map';
import { useSaveFloorMap } from '../api/save-floor-map';
import { clearDraft, writeDraft } from '../drafts';
import type { EditorStore } from '../model/store';

export type SaveProblem = { kind: 'details'; details: ErrorDetail[] } | { kind: 'message'; text: string } | null;

/**
 * Saving with the revision the edit started from: 409 STALE_UPDATE fetches who saved what and asks
 * (overwrite, or reload theirs keeping ours as a draft); 400 keeps the details to show.
 */
export function useMapSave(
  store: EditorStore,
  floorId: number,
  baseRevision: number,
  onSaved: (map: FloorMap) => void,
) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const mutation = useSaveFloorMap(floorId);
  const [theirs, setTheirs] = useState<FloorMap | null>(null);
  const [problem, setProblem] = useState<SaveProblem>(null);

  const save = useCallback(
    (overwrite = false) => {
      const document = store.doc;
      setProblem(null);
      mutation.mutate(
        { baseRevision, document, overwrite },
        {
          onSuccess: (map) => {
            setTheirs(null);
            if (store.doc === document) {
              store.markSaved();
              clearDraft(floorId);
            }
            onSaved(map);
            showNotification({ color: 'teal', message: t('mapEditor.notices.saved', { revision: map.revision }) });
          },
          onError: async (e) => {
            if (isApiError(e) && e.code === 'STALE_UPDATE') {
              try {
                setTheirs(await getFloorMap(floorId));
              } catch (err) {
                setProblem({ kind: 'message', text: errorText(err) });
              }
              return;
            }
            if (isApiError(e) && e.code === 'VALIDATION_FAILED' && e.details.length > 0)
              setProblem({ kind: 'details', details: e.details });
            else setProblem({ kind: 'message', text: errorText(e) });
          },
        },
      );
    },
    [store, floorId, baseRevision, mutation, onSaved, t, errorText],
  );

  /** Loads their revision; our document stays in the browser as a draft. */
  const reloadTheirs = useCallback(() => {
    if (!theirs) return null;
    writeDraft(floorId, baseRevision, store.doc);
    queryClient.setQueryData(queryKeys.maps.detail(floorId), theirs);
    const map = theirs;
    setTheirs(null);
    return map;
  }, [theirs, floorId, baseRevision, store, queryClient]);

  return {
    save,
    saving: mutation.isPending,
    theirs,
    closeStale: () => setTheirs(null),
    reloadTheirs,
    problem,
    clearProblem: () => setProblem(null),
  };
}
