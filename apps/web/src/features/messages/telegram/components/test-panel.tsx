import type { Template } from '@lumi/contract';
import { Send } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { useSendTestMessage } from '../api/send-test-message';
import type { SampleDataState } from '../../variables/hooks/use-sample-data';
import { Panel } from '../../components/panel';
import { TestHistoryList } from './test-history-list';

type Outcome = { ok: true; message: string; warning?: string } | { ok: false; message: string };

interface TestPanelProps {
  template: Template;
  /** The editor holds changes that are not saved: a test sends the saved version. */
  unsaved: boolean;
  /** The sample data the editor shares with the Preview panel. */
  sample: SampleDataState;
}

/**
 * The Test panel (existing templates only, for those with templates:send): sends the saved template to
 * its channel through the bot.
 */
export function TestPanel({ template, unsaved, sample }: TestPanelProps) {
  const sendTest = useSendTestMessage();
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const send = () => {
    setOutcome(null);
    sendTest.mutate(
      { templateId: template.id, data: sample.data },
      {
        onSuccess: (result) =>
          setOutcome(
            result.success
              ? {
                  ok: true,
                  message: `Test message sent successfully! Message ID: ${result.telegram_message_id}`,
                  // A message that went out but could not be pinned carries the reason.
                  warning: result.error,
                }
              : { ok: false, message: result.error || 'Failed to send test message' },
          ),
        onError: (error) =>
          setOutcome({ ok: false, message: errorMessage(error, 'Failed to send test message') }),
      },
    );
  };

  return (
    <Panel id="test-panel-title" title="Test">
      <div className="space-y-3">
        {unsaved && (
          <Alert>The test sends the saved version {template.version}: save first to test your changes.</Alert>
        )}
        <Button
          onClick={send}
          disabled={sendTest.isPending || sample.loading || sample.invalid}
          className="w-full"
        >
          <Send aria-hidden />
          {sendTest.isPending ? 'Sending...' : 'Send Test Message'}
        </Button>
        {outcome && (
          <Alert variant={outcome.ok ? 'success' : 'error'} onDismiss={() => setOutcome(null)}>
            {outcome.message}
            {outcome.ok && outcome.warning && <p className="mt-1">{outcome.warning}</p>}
          </Alert>
        )}
        <ul className="list-disc space-y-1 pl-4 text-xs text-muted-foreground">
          <li>The message is sent to the template&apos;s configured channel.</li>
          <li>If the template has a topic, the message goes to that topic.</li>
          <li>Every test send is recorded in the test history below.</li>
          <li>Edit the sample data to test with other values.</li>
        </ul>
        <TestHistoryList templateId={template.id} />
      </div>
    </Panel>
  );
}
