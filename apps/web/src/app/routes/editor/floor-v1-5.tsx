import { EditorRoute } from './editor-route';

/** /editor/v1_5/{id}/floor: the same editor. */
export function Component() {
  return <EditorRoute variant="v1_5" />;
}
