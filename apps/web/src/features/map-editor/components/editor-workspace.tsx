import { Alert, Badge, Box, Button, Drawer, em, Group, Paper, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { FloorMap } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBuildingTimeZone } from '@/lib/building-time';
import { useFormat } from '@/lib/format';
import { showNotification } from '@/lib/notify';
import { queryKeys } from '@/lib/query-keys';
import { useLeaveGuard } from '@/lib/use-leave-guard';
import { floorMapQueryOptions } from '../api/get-floor-map';
import { useMapRevision } from '../api/get-map-revision';
import { useRestoreMapRevision } from '../api/restore-map-revision';
import { MapCanvas } from '../canvas/map-canvas';
import { LiveSource } from '../canvas/live-source';
import { clearDraft, readDraft, sameDocument, writeDraft, type MapDraft } from '../drafts';
import { EditorStore } from '../model/store';
import { EditorToolbar } from './editor-toolbar';
import { LiveFeed } from './live-feed';
import { PartialPrompt } from './partial-prompt';
import { RevisionsDrawer } from './revisions-drawer';
import { SaveProblemAlert } from './save-problem';
import { SidePanel, type PanelTab } from './side-panel';
import { StaleDialog } from './stale-dialog';
import { ScaleBar, StatusBar } from './status-bar';
import { RobotTools } from './robot-tools';
import { SessionOverlaySource } from './session-overlay';
import { useMapSave } from './use-map-save';
import { useNotices } from './use-notices';
import { useStoreChannel } from './use-store';

const DRAFT_DELAY_MS = 800;
/**
 * Below this width (tablets, the menu then being a drawer too) the side panel is a drawer opened from
 * the header, so the canvas keeps the screen's width.
 */
const PANEL_DRAWER_QUERY = `(max-width: ${em(991)})`;

export interface EditorWorkspaceProps {
  map: FloorMap;
  floorName: string;
  canEdit: boolean;
  beta: boolean;
  /** /editor/floor/{id}/partial: the partial map tool and list first. */
  partial: boolean;
  /** Centre on this waypoint when opening (from the waypoint list). */
  focusWaypointId: number | null;
}

type DraftNotice = { kind: 'restored' | 'kept'; draft: MapDraft } | null;

/** Opens the map: restores a draft left in this browser (it keeps the revision it started from). */
function initialState(map: FloorMap, canEdit: boolean, partial: boolean) {
  const store = new EditorStore(map.document, { readOnly: !canEdit, tool: partial ? 'partialMap' : 'select' });
  let notice: DraftNotice = null;
  let base = map.revision;
  const draft = canEdit ? readDraft(map.floorId) : null;
  if (draft && sameDocument(draft.document, map.document)) clearDraft(map.floorId);
  else if (draft) {
    store.load(draft.document, { dirty: true });
    base = draft.baseRevision;
    notice = { kind: 'restored', draft };
  }
  return { store, notice, base };
}

/** The editor screen once the map is loaded: toolbar, canvas, side panel, status bar and dialogs. */
export function EditorWorkspace({ map, floorName, canEdit, beta, partial, focusWaypointId }: EditorWorkspaceProps) {
  const { t } = useTranslation();
  const f = useFormat();
  // Saves and drafts are events of the floor's building: its zone (the short name after each time).
  const timeZone = useBuildingTimeZone(map.buildingId);
  const [init] = useState(() => initialState(map, canEdit, partial));
  const store = init.store;
  const [live] = useState(() => new LiveSource());
  const [overlay] = useState(() => new SessionOverlaySource());
  const queryClient = useQueryClient();
  const [baseRevision, setBaseRevision] = useState(init.base);
  const [revision, setRevision] = useState(map.revision);
  const [draftNotice, setDraftNotice] = useState<DraftNotice>(init.notice);
  const [tab, setTab] = useState<PanelTab>(partial ? 'partialMaps' : 'properties');
  const [revisionsOpen, setRevisionsOpen] = useState(false);
  const narrow = useMediaQuery(PANEL_DRAWER_QUERY) ?? false;
  const [panelOpen, setPanelOpen] = useState(false);
  const [previewRevision, setPreviewRevision] = useState<number | null>(null);
  useStoreChannel(store, 'model');
  useNotices(store);

  const onSaved = useCallback((saved: FloorMap) => {
    setBaseRevision(saved.revision);
    setRevision(saved.revision);
    setDraftNotice(null);
  }, []);
  const saving = useMapSave(store, map.floorId, baseRevision, onSaved);
  const restore = useRestoreMapRevision(map.floorId);
  const preview = useMapRevision(map.floorId, previewRevision);
  const previewStore = useMemo(
    () => (preview.data ? new EditorStore(preview.data.document, { readOnly: true }) : null),
    [preview.data],
  );
  const shown = previewRevision !== null && previewStore ? previewStore : store;

  // Unsaved changes go to the browser (debounced).
  useEffect(() => {
    if (!canEdit) return;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const off = store.subscribe('model', () => {
      if (!store.dirty) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        if (store.dirty) writeDraft(map.floorId, baseRevision, store.doc);
      }, DRAFT_DELAY_MS);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
      if (store.dirty) writeDraft(map.floorId, baseRevision, store.doc);
    };
  }, [store, canEdit, map.floorId, baseRevision]);

  // Until they are saved, leaving the editor (a menu entry, back, closing the tab) asks first.
  useLeaveGuard(store.dirty);

  const fit = useCallback(() => shown.fit(map.image), [shown, map.image]);
  const onReady = useCallback(() => {
    const w = focusWaypointId === null ? undefined : store.doc.waypoints.find((x) => x.id === focusWaypointId);
    if (w) {
      store.centerOn(w, 60);
      store.select([{ kind: 'waypoint', id: w.id }]);
    } else store.fit(map.image);
  }, [store, map.image, focusWaypointId]);
  useEffect(() => {
    if (previewStore) previewStore.setCamera(store.camera);
  }, [previewStore, store]);

  const reloadTheirs = () => {
    const theirs = saving.reloadTheirs();
    if (!theirs) return;
    const draft = readDraft(map.floorId);
    store.load(theirs.document);
    setBaseRevision(theirs.revision);
    setRevision(theirs.revision);
    if (draft) setDraftNotice({ kind: 'kept', draft });
    showNotification({ color: 'blue', message: t('mapEditor.notices.reloaded', { revision: theirs.revision }) });
  };

  // A robot's map replaced the floor's image: load the floor map again (the canvas takes the new
  // image). If that made a new revision, take it unless there are local edits (their save then
  // meets the stale-revision dialog).
  const onImageSaved = () => {
    void queryClient.fetchQuery({ ...floorMapQueryOptions(map.floorId), staleTime: 0 }).then(
      (m) => {
        if (m.revision === revision || store.dirty) return;
        store.load(m.document);
        setBaseRevision(m.revision);
        setRevision(m.revision);
      },
      () => undefined,
    );
  };

  // A recorded route was saved as a new revision: load it (local edits stay as a draft, as when
  // reloading someone else's revision) and select the new route.
  const onRouteSaved = (m: FloorMap, name: string) => {
    if (store.dirty) {
      writeDraft(map.floorId, baseRevision, store.doc);
      const draft = readDraft(map.floorId);
      if (draft) setDraftNotice({ kind: 'kept', draft });
    }
    queryClient.setQueryData(queryKeys.maps.detail(map.floorId), m);
    store.load(m.document);
    setBaseRevision(m.revision);
    setRevision(m.revision);
    const route = m.document.routes.filter((r) => r.name === name && r.recorded).at(-1) ?? m.document.routes.at(-1);
    if (route) {
      store.selectRoute(route.id);
      setTab('routes');
    }
    showNotification({
      color: 'teal',
      message: t('mapEditor.session.routeSaved', { name, revision: m.revision }),
    });
  };

  const restoreDraft = (draft: MapDraft) => {
    store.load(draft.document, { dirty: true });
    setBaseRevision(draft.baseRevision);
    setDraftNotice(null);
  };
  const discardDraft = () => {
    clearDraft(map.floorId);
    if (draftNotice?.kind === 'restored') {
      store.load(map.document);
      setBaseRevision(revision);
    }
    setDraftNotice(null);
  };

  const onRestore = (rev: number) =>
    restore.mutate(rev, {
      onSuccess: (m) => {
        store.load(m.document);
        clearDraft(map.floorId);
        setBaseRevision(m.revision);
        setRevision(m.revision);
        setPreviewRevision(null);
        setRevisionsOpen(false);
        showNotification({
          color: 'teal',
          message: t('mapEditor.notices.restored', { revision: rev, current: m.revision }),
        });
      },
      onError: () => showNotification({ color: 'red', message: t('errors.INTERNAL') }),
    });

  const sidePanel = (
    <SidePanel
      store={shown}
      tab={tab}
      onTab={setTab}
      image={map.image}
      footer={
        <RobotTools
          store={store}
          floorId={map.floorId}
          buildingId={map.buildingId}
          canEdit={canEdit}
          overlay={overlay}
          onImageSaved={onImageSaved}
          onRouteSaved={onRouteSaved}
        />
      }
    />
  );

  return (
    <Box style={{ display: 'flex', flexDirection: 'column', height: 'calc(100dvh - 110px)', minHeight: 520, gap: 8 }}>
      <Group gap="xs">
        <Title order={1} size="h3">
          {t('mapEditor.title', { floor: floorName })}
        </Title>
        {beta && (
          <Badge color="grape" variant="light" data-testid="beta-badge">
            {t('mapEditor.beta')}
          </Badge>
        )}
        {!canEdit && (
          <Badge color="gray" variant="light" title={t('mapEditor.readOnlyHint')} data-testid="read-only-badge">
            {t('mapEditor.readOnly')}
          </Badge>
        )}
        {narrow && (
          <Button
            size="compact-sm"
            variant="light"
            ml="auto"
            onClick={() => setPanelOpen(true)}
            aria-expanded={panelOpen}
            data-testid="open-side-panel"
          >
            {t('mapEditor.panel.open')}
          </Button>
        )}
      </Group>
      {narrow && (
        <Drawer
          opened={panelOpen}
          onClose={() => setPanelOpen(false)}
          position="right"
          size={340}
          keepMounted
          title={t('mapEditor.panel.open')}
          data-testid="side-panel-drawer"
          styles={{ body: { height: 'calc(100% - 60px)', display: 'flex', flexDirection: 'column', padding: 0 } }}
        >
          {sidePanel}
        </Drawer>
      )}
      {draftNotice && (
        <Alert color="yellow" py={6} data-testid="draft-notice">
          <Group gap="sm">
            <Text size="sm">
              {t(`mapEditor.draft.${draftNotice.kind}`, { time: f.dateTime(draftNotice.draft.savedAt, { timeZone }) })}
            </Text>
            {draftNotice.kind === 'kept' && (
              <Button size="compact-xs" variant="light" onClick={() => restoreDraft(draftNotice.draft)}>
                {t('mapEditor.draft.restore')}
              </Button>
            )}
            <Button size="compact-xs" variant="default" onClick={discardDraft} data-testid="discard-draft">
              {t('mapEditor.draft.discard')}
            </Button>
          </Group>
        </Alert>
      )}
      <SaveProblemAlert problem={saving.problem} doc={store.doc} onClose={saving.clearProblem} />
      {previewRevision !== null ? (
        <Alert color="blue" py={6}>
          <Group gap="sm">
            <Text size="sm">{t('mapEditor.revisionList.previewing', { revision: previewRevision })}</Text>
            <Button size="compact-xs" variant="default" onClick={() => setPreviewRevision(null)}>
              {t('mapEditor.revisionList.closePreview')}
            </Button>
          </Group>
        </Alert>
      ) : (
        <EditorToolbar
          store={store}
          saving={saving.saving}
          onSave={() => saving.save(false)}
          onFit={fit}
          onRevisions={() => setRevisionsOpen(true)}
        />
      )}
      <Box style={{ display: 'flex', flex: 1, minHeight: 0, gap: 8 }}>
        <Paper withBorder style={{ position: 'relative', flex: 1, minWidth: 0, overflow: 'hidden' }}>
          <MapCanvas
            key={shown === store ? 'edit' : `preview-${previewRevision}`}
            store={shown}
            image={map.image}
            live={live}
            overlay={overlay}
            label={t('mapEditor.canvasLabel', { floor: floorName })}
            onReady={shown === store ? onReady : undefined}
          />
          <ScaleBar store={shown} />
          {!map.image && (
            <Text size="xs" c="dimmed" style={{ position: 'absolute', top: 8, left: 12, pointerEvents: 'none' }}>
              {t('mapEditor.noImage')}
            </Text>
          )}
        </Paper>
        {!narrow && (
          <Paper withBorder w={320} style={{ flex: 'none', display: 'flex', flexDirection: 'column', minHeight: 0 }}>
            {sidePanel}
          </Paper>
        )}
      </Box>
      <Paper withBorder>
        <StatusBar store={shown} revision={previewRevision ?? revision} />
      </Paper>
      <LiveFeed buildingId={map.buildingId} floorId={map.floorId} live={live} />
      <PartialPrompt store={store} />
      <StaleDialog
        theirs={saving.theirs}
        busy={saving.saving}
        onOverwrite={() => saving.save(true)}
        onReload={reloadTheirs}
        onClose={saving.closeStale}
        timeZone={timeZone}
      />
      <RevisionsDrawer
        floorId={map.floorId}
        timeZone={timeZone}
        opened={revisionsOpen}
        current={revision}
        canRestore={canEdit}
        restoring={restore.isPending}
        onClose={() => setRevisionsOpen(false)}
        onPreview={(rev) => {
          setPreviewRevision(rev === revision ? null : rev);
          setRevisionsOpen(false);
        }}
        onRestore={onRestore}
      />
    </Box>
  );
}
