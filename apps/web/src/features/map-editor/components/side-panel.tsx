import { ScrollArea, Tabs } from '@mantine/core';
import type { MapImage } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { useMapWarnings } from '../canvas/warning-source';
import type { EditorStore } from '../model/store';
import { NoGoList, PartialMapList, RouteList, WaypointList } from './item-lists';
import { MapWarnings, warnedIds } from './map-warnings';
import { PropertiesPanel } from './properties-panel';
import { useStoreChannel } from './use-store';

export type PanelTab = 'properties' | 'waypoints' | 'routes' | 'partialMaps' | 'noGoAreas';
const tabs: PanelTab[] = ['properties', 'waypoints', 'routes', 'partialMaps', 'noGoAreas'];

interface SidePanelProps {
  store: EditorStore;
  tab: PanelTab;
  onTab: (tab: PanelTab) => void;
  /** Extra content under the tabs (the trial run). */
  footer?: React.ReactNode;
  /** The floor's map image: warnings of waypoints and edges on its obstacles. */
  image?: MapImage | null;
}

/** Properties of the selection and the lists of the map's items. */
export function SidePanel({ store, tab, onTab, footer, image = null }: SidePanelProps) {
  const { t } = useTranslation();
  useStoreChannel(store, 'model');
  const warned = warnedIds(useMapWarnings(store, image));
  return (
    <Tabs
      value={tab}
      onChange={(v) => v && onTab(v as PanelTab)}
      variant="outline"
      style={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }}
      keepMounted={false}
    >
      <Tabs.List>
        {tabs.map((id) => (
          <Tabs.Tab key={id} value={id} fz="xs" px={8} data-testid={`panel-tab-${id}`}>
            {t(`mapEditor.panel.${id}`)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      <MapWarnings store={store} image={image} />
      <ScrollArea style={{ flex: 1, minHeight: 0 }} type="auto" p="xs">
        <Tabs.Panel value="properties">
          <PropertiesPanel store={store} />
        </Tabs.Panel>
        <Tabs.Panel value="waypoints">
          <WaypointList store={store} warned={warned.waypoints} />
        </Tabs.Panel>
        <Tabs.Panel value="routes">
          <RouteList store={store} />
        </Tabs.Panel>
        <Tabs.Panel value="partialMaps">
          <PartialMapList store={store} />
        </Tabs.Panel>
        <Tabs.Panel value="noGoAreas">
          <NoGoList store={store} />
        </Tabs.Panel>
      </ScrollArea>
      {footer}
    </Tabs>
  );
}
