import type { AuditListResponse } from '@lumi/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '@/test/fake-api';
import { jsonResponse, renderWithProviders, toasts } from '@/test/render-with-providers';
import { signIn } from '@/test/session-users';
import { AuditLogPanel } from './audit-log-panel';

const EMPTY: AuditListResponse = { logs: [], next_cursor: null };
const CSV = '\uFEFFid,timestamp\r\n2,2026-03-01T10:00:00.000Z\r\n';

/** A body whose chunks the test hands over one by one, or breaks off. */
function controlledBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return {
    stream,
    send: (text: string) => controller.enqueue(new TextEncoder().encode(text)),
    end: () => controller.close(),
    fail: () => controller.error(new TypeError('terminated')),
  };
}

function fileResponse(body: BodyInit, name = 'lumi-audit-20260301T100000Z.csv') {
  return new Response(body, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${name}"`,
    },
  });
}

function readBlob(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsText(blob);
  });
}

describe('audit log export', () => {
  const saved: { name: string; blob: Blob }[] = [];

  beforeEach(() => {
    signIn();
    saved.length = 0;
    let lastBlob: Blob | undefined;
    URL.createObjectURL = vi.fn((blob: Blob) => {
      lastBlob = blob;
      return 'blob:lumi-audit';
    });
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, blob: lastBlob! });
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('downloads the applied filters as CSV with the token, saying how far it has got', async () => {
    const body = controlledBody();
    const api = fakeApi({
      'GET /api/admin/audit-logs': jsonResponse(EMPTY),
      'GET /api/admin/audit-logs/export': fileResponse(body.stream),
    });
    const user = userEvent.setup();
    renderWithProviders(<AuditLogPanel />);
    await user.type(screen.getByLabelText('User'), 'alice');
    await user.click(screen.getByRole('button', { name: 'Apply' }));

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    const [request] = api.requestsTo('/api/admin/audit-logs/export');
    expect(request?.headers.authorization).toBe('Bearer token');
    expect(Object.fromEntries(request!.query)).toEqual({ format: 'csv', user: 'alice' });

    body.send('x'.repeat(2_500_000));
    expect(await screen.findByRole('button', { name: 'Downloading 2.5 MB...' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export JSON Lines' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(saved).toEqual([]);

    body.send(CSV);
    body.end();
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.name).toBe('lumi-audit-20260301T100000Z.csv');
    expect(saved[0]!.blob.type).toBe('text/csv;charset=utf-8');
    expect(await readBlob(saved[0]!.blob)).toBe('x'.repeat(2_500_000) + CSV);
    expect(await screen.findByRole('button', { name: 'Export CSV' })).not.toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(toasts()).toHaveTextContent('Exported the audit log to lumi-audit-20260301T100000Z.csv');
  });

  it('works from the keyboard, says Preparing until the answer comes, and Cancel stops it', async () => {
    let refuse!: (error: Error) => void;
    const api = fakeApi({
      'GET /api/admin/audit-logs': jsonResponse(EMPTY),
      'GET /api/admin/audit-logs/export': () =>
        new Promise<Response>((_, reject) => {
          refuse = reject;
        }),
    });
    const user = userEvent.setup();
    renderWithProviders(<AuditLogPanel />);
    const jsonLines = screen.getByRole('button', { name: 'Export JSON Lines' });
    jsonLines.focus();
    await user.keyboard('{Enter}');

    expect(await screen.findByRole('button', { name: 'Preparing...' })).toHaveFocus();
    expect(Object.fromEntries(api.requestsTo('/api/admin/audit-logs/export')[0]!.query)).toEqual({
      format: 'jsonl',
    });
    // Pressing it again does not start a second download.
    await user.keyboard('{Enter}');
    expect(api.requestsTo('/api/admin/audit-logs/export')).toHaveLength(1);

    // fetch gives up when its signal is aborted, as a browser's does.
    const [, init] = vi.mocked(globalThis.fetch).mock.calls.at(-1)!;
    init?.signal?.addEventListener('abort', () => refuse(new DOMException('Aborted', 'AbortError')));
    await user.tab();
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('button', { name: 'Export JSON Lines' })).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(saved).toEqual([]);
  });

  it("shows the server's reason when it refuses, and a download broken off part way as failed", async () => {
    const body = controlledBody();
    fakeApi({
      'GET /api/admin/audit-logs': jsonResponse(EMPTY),
      'GET /api/admin/audit-logs/export': [
        jsonResponse(
          {
            detail: "The range's end must not be before its start",
            code: 'validation_failed',
            errors: [],
            request_id: 'r1',
          },
          422,
        ),
        fileResponse(body.stream),
      ],
    });
    const user = userEvent.setup();
    renderWithProviders(<AuditLogPanel />);

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "The range's end must not be before its start",
    );

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    body.send(CSV);
    body.fail();
    expect(await screen.findByRole('alert')).toHaveTextContent('The export did not finish');
    expect(saved).toEqual([]);
  });
});
