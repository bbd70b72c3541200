import { EditorRoute } from './editor-route';

/** /editor/floor/{id}: the map editor. */
export function Component() {
  return <EditorRoute variant="v1" />;
}
