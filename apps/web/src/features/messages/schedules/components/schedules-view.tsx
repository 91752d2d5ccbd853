import { describeRecurrence, type Schedule } from '@lumi/contract';
import { useState } from 'react';
import { toast } from '@/lib/toast';
import { Alert } from '@/components/ui/alert';
import { AddButton } from '@/components/ui/add-button';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { ResponsiveTable } from '@/components/ui/responsive-table';
import { ViewSection } from '@/components/ui/view-section';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime, formatInZone } from '@/lib/format';
import { useHasPermission } from '@/lib/permissions';
import { useSchedules } from '../api/list-schedules';
import { useDeleteSchedule, useSetScheduleEnabled } from '../api/schedule-actions';
import { RunOutcomeBadge } from './run-outcome-badge';
import { ScheduleDialog } from './schedule-dialog';
import { ScheduleRunsDialog } from './schedule-runs-dialog';

/**
 * Messages > Schedules (docs/bot-developers/deliveries.md, "Schedules"): every schedule with its recurrence
 * in words, next run, last result and whether it is enabled (a checkbox that pauses and resumes it); create,
 * edit, delete and the history of runs. Changing needs templates:write.
 */
export function SchedulesView() {
  const schedules = useSchedules();
  const canWrite = useHasPermission('templates:write');
  const [editing, setEditing] = useState<Schedule | 'new' | null>(null);
  const [showingRuns, setShowingRuns] = useState<Schedule | null>(null);
  const [deleting, setDeleting] = useState<Schedule | null>(null);

  return (
    <ViewSection
      id="schedules-heading"
      title="Schedules"
      actions={canWrite && <AddButton onClick={() => setEditing('new')}>New Schedule</AddButton>}
    >
      {schedules.isPending ? (
        <Skeleton className="h-32" />
      ) : schedules.isError ? (
        <Alert variant="error">{errorMessage(schedules.error, 'Failed to load the schedules')}</Alert>
      ) : schedules.data.schedules.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          No schedules yet. A schedule sends a template on a recurrence, with fixed data or figures Lumi
          knows.
        </p>
      ) : (
        <ResponsiveTable
          aria-label="Schedules"
          rows={schedules.data.schedules}
          rowKey={(schedule) => schedule.id}
          columns={[
            { header: 'Name', primary: true, className: 'font-medium', cell: (schedule) => schedule.name },
            {
              header: 'Template',
              cell: (schedule) => schedule.template_name ?? 'Deleted template',
            },
            {
              header: 'Recurrence',
              cell: (schedule) => (
                <span>
                  {describeRecurrence(schedule.recurrence)}
                  <span className="block text-xs text-muted-foreground">{schedule.timezone}</span>
                </span>
              ),
            },
            {
              header: 'Next run',
              // In the schedule's own zone, as its runs are worked out.
              cell: (schedule) =>
                formatInZone(schedule.next_run_at, schedule.timezone, schedule.enabled ? 'Ended' : 'Paused'),
            },
            { header: 'Last result', cell: (schedule) => <LastResult schedule={schedule} /> },
            {
              header: 'Enabled',
              cell: (schedule) => <EnabledToggle schedule={schedule} canWrite={canWrite} />,
            },
            {
              header: 'Actions',
              headerHidden: true,
              cell: (schedule) => (
                <ScheduleActions
                  schedule={schedule}
                  canWrite={canWrite}
                  onEdit={() => setEditing(schedule)}
                  onRuns={() => setShowingRuns(schedule)}
                  onDelete={() => setDeleting(schedule)}
                />
              ),
            },
          ]}
        />
      )}
      <ScheduleDialog
        key={editing === 'new' ? 'new' : (editing?.id ?? 'closed')}
        schedule={editing === 'new' || editing === null ? undefined : editing}
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
      />
      {showingRuns && <ScheduleRunsDialog schedule={showingRuns} onClose={() => setShowingRuns(null)} />}
      {deleting && <DeleteScheduleDialog schedule={deleting} onClose={() => setDeleting(null)} />}
    </ViewSection>
  );
}

function LastResult({ schedule }: { schedule: Schedule }) {
  const last = schedule.last_result;
  if (!last) return <span className="text-muted-foreground">No run yet</span>;
  return (
    <div className="space-y-0.5">
      <RunOutcomeBadge outcome={last.outcome} />
      <span className="block text-xs text-muted-foreground">{formatDateTime(last.run_at)}</span>
      {last.detail && <span className="block max-w-xs text-xs break-words">{last.detail}</span>}
    </div>
  );
}

/** Pauses and resumes a schedule from its row. */
function EnabledToggle({ schedule, canWrite }: { schedule: Schedule; canWrite: boolean }) {
  const setEnabled = useSetScheduleEnabled();
  const toggle = (enabled: boolean) =>
    setEnabled.mutate(
      { id: schedule.id, enabled },
      {
        onSuccess: () => toast.success(`Schedule '${schedule.name}' ${enabled ? 'resumed' : 'paused'}`),
        onError: (error) => toast.error(errorMessage(error, 'Failed to change the schedule')),
      },
    );
  return (
    <Checkbox
      checked={schedule.enabled}
      disabled={!canWrite || setEnabled.isPending}
      onCheckedChange={toggle}
      label={<span className="sr-only">Enabled: {schedule.name}</span>}
    />
  );
}

interface ScheduleActionsProps {
  schedule: Schedule;
  canWrite: boolean;
  onEdit: () => void;
  onRuns: () => void;
  onDelete: () => void;
}

function ScheduleActions({ schedule, canWrite, onEdit, onRuns, onDelete }: ScheduleActionsProps) {
  return (
    <div className="flex justify-end gap-1">
      <Button variant="ghost" size="sm" onClick={onRuns} aria-label={`Runs of ${schedule.name}`}>
        Runs
      </Button>
      {canWrite && (
        <>
          <Button variant="ghost" size="sm" onClick={onEdit} aria-label={`Edit ${schedule.name}`}>
            Edit
          </Button>
          <Button variant="ghost" size="sm" onClick={onDelete} aria-label={`Delete ${schedule.name}`}>
            Delete
          </Button>
        </>
      )}
    </div>
  );
}

function DeleteScheduleDialog({ schedule, onClose }: { schedule: Schedule; onClose: () => void }) {
  const remove = useDeleteSchedule();
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Delete '${schedule.name}'?`}
      description="It sends nothing more. Its deliveries stay in the delivery log."
      confirmLabel="Delete Schedule"
      pendingLabel="Deleting..."
      pending={remove.isPending}
      error={remove.error ? errorMessage(remove.error, 'Failed to delete the schedule') : null}
      onConfirm={() =>
        remove.mutate(
          { id: schedule.id, version: schedule.version },
          {
            onSuccess: () => {
              toast.success(`Schedule '${schedule.name}' deleted`);
              onClose();
            },
          },
        )
      }
    />
  );
}
