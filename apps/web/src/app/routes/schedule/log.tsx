import { useParams } from 'react-router';
import { FlowRunPanel } from '@/features/flow-runs/components/flow-run-panel';
import { ScheduleLogPage } from '@/features/schedules/components/schedule-log';
import { idParam } from '../shared/invalid-id';

/** The log's page is in the path (`/schedule/log/2`); a run opens the flow-runs feature's record. */
export function Component() {
  const page = idParam(useParams().page) ?? 1;
  return <ScheduleLogPage page={page} runView={(runId) => <FlowRunPanel runId={runId} />} />;
}
