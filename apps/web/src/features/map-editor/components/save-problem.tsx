import { Alert, List } from '@mantine/core';
import type { MapDocument } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import type { SaveProblem } from './use-map-save';
import { useMapMessageText } from './message-text';

const collections = ['waypoints', 'edges', 'routes', 'noGoAreas', 'partialMaps'] as const;
type CollectionName = (typeof collections)[number];
const isCollection = (v: string | undefined): v is CollectionName => collections.includes(v as CollectionName);

/** "Waypoint WP 3 (x)" for `document.waypoints.2.x`. */
function useDescribePath(doc: MapDocument) {
  const { t } = useTranslation();
  return (path: string): string => {
    const parts = path.split('.');
    if (parts[0] === 'document') parts.shift();
    const [collection, index, ...rest] = parts;
    if (!isCollection(collection)) return path;
    const i = Number(index);
    const item = Number.isInteger(i) ? doc[collection][i] : undefined;
    const n = item && 'name' in item && item.name ? item.name : item ? String(item.id) : String(i + 1);
    const field = rest.length ? ` (${rest.join('.')})` : '';
    return `${t(`mapEditor.fields.${collection}`, { n })}${field}`;
  };
}

/** Why the server refused the map: each detail with the item it is about, translated. */
export function SaveProblemAlert({
  problem,
  doc,
  onClose,
}: {
  problem: SaveProblem;
  doc: MapDocument;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const message = useMapMessageText();
  const describe = useDescribePath(doc);
  if (!problem) return null;
  return (
    <Alert
      color="red"
      role="alert"
      withCloseButton
      onClose={onClose}
      title={t('mapEditor.saveFailed')}
      data-testid="save-problem"
      py="xs"
    >
      {problem.kind === 'message' ? (
        problem.text
      ) : (
        <List size="sm">
          {problem.details.slice(0, 10).map((d, i) => (
            <List.Item key={i}>
              {describe(d.path)}: {message(d.message)}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
