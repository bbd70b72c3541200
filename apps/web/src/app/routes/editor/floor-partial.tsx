import { EditorRoute } from './editor-route';

/** /editor/floor/{id}/partial: the editor with the partial map tool and list in focus. */
export function Component() {
  return <EditorRoute variant="v1" partial />;
}
