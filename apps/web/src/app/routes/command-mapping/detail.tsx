import { useParams } from 'react-router';
import { CommandMappingPage } from '@/features/command-mappings/components/command-mapping-page';
import { idParam, InvalidId } from '../shared/invalid-id';

export function Component() {
  const id = idParam(useParams().id);
  if (id === null) return <InvalidId />;
  return <CommandMappingPage key={id} id={id} />;
}
