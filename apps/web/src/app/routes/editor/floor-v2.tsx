import { EditorRoute } from './editor-route';

/** /editor/v2/{id}/floor: the same editor, marked beta. */
export function Component() {
  return <EditorRoute variant="v2" />;
}
