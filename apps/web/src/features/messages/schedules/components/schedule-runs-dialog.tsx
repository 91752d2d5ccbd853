import type { Schedule } from '@lumi/contract';
import { Alert } from '@/components/ui/alert';
import { Dialog } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, Td, Th } from '@/components/ui/table';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useScheduleRuns } from '../api/list-schedule-runs';
import { RunOutcomeBadge } from './run-outcome-badge';

interface ScheduleRunsDialogProps {
  schedule: Schedule;
  onClose: () => void;
}

/** The history of a schedule's runs: its deliveries, newest first, with their status and error. */
export function ScheduleRunsDialog({ schedule, onClose }: ScheduleRunsDialogProps) {
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Runs of ${schedule.name}`}
      className="max-w-3xl"
    >
      <RunsTable schedule={schedule} />
    </Dialog>
  );
}

function RunsTable({ schedule }: { schedule: Schedule }) {
  const runs = useScheduleRuns(schedule.id);
  if (runs.isPending) return <Skeleton className="h-24" />;
  if (runs.isError)
    return <Alert variant="error">{errorMessage(runs.error, 'Failed to load the runs')}</Alert>;
  const deliveries = runs.data.deliveries;
  if (deliveries.length === 0) {
    return <p className="text-sm text-muted-foreground">No run has made a delivery yet.</p>;
  }
  return (
    <Table aria-label={`Runs of ${schedule.name}`}>
      <thead>
        <tr>
          <Th>Queued</Th>
          <Th>Channel</Th>
          <Th>Status</Th>
          <Th>Attempts</Th>
          <Th>Error</Th>
        </tr>
      </thead>
      <tbody>
        {deliveries.map((delivery) => (
          <tr key={delivery.id}>
            <Td>{formatDateTime(delivery.created_at)}</Td>
            <Td>{delivery.channel_name}</Td>
            <Td>
              <RunOutcomeBadge outcome={delivery.status} />
            </Td>
            <Td>{delivery.attempts}</Td>
            <Td className="max-w-xs break-words">{delivery.error ?? ''}</Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
