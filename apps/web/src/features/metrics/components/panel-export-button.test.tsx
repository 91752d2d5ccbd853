import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '@/test/fake-api';
import { jsonResponse, renderWithProviders, toasts } from '@/test/render-with-providers';
import { signIn } from '@/test/session-users';
import { PanelExportButton } from './panel-export-button';

const CSV = '\uFEFFday,provider\r\n2026-11-20,openai\r\n';
const NAME = 'lumi-usage-20261119T1200Z-20261120T1200Z.csv';
const CUSTOM = { kind: 'custom', from: '2026-11-19T12:00:00.000Z', to: '2026-11-20T12:00:00.000Z' } as const;

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

const fileResponse = (body: BodyInit) =>
  new Response(body, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${NAME}"`,
    },
  });

function readBlob(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsText(blob);
  });
}

describe('panel CSV export', () => {
  const saved: { name: string; blob: Blob }[] = [];

  beforeEach(() => {
    signIn();
    saved.length = 0;
    let lastBlob: Blob | undefined;
    URL.createObjectURL = vi.fn((blob: Blob) => {
      lastBlob = blob;
      return 'blob:lumi-panel';
    });
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, blob: lastBlob! });
    });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("downloads the panel's range with the token, saying how far it has got", async () => {
    const body = controlledBody();
    const api = fakeApi({ 'GET /api/metrics/export/:panel': fileResponse(body.stream) });
    const user = userEvent.setup();
    renderWithProviders(<PanelExportButton panel="usage" range={CUSTOM} />);

    await user.click(screen.getByRole('button', { name: 'Export CSV of LLM usage' }));
    const [request] = api.requestsTo('/api/metrics/export/usage.csv');
    expect(request?.headers.authorization).toBe('Bearer token');
    expect(Object.fromEntries(request!.query)).toEqual({ from: CUSTOM.from, to: CUSTOM.to });

    body.send('x'.repeat(1_200_000));
    expect(await screen.findByRole('button', { name: 'Downloading 1.2 MB...' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(screen.getByRole('status')).toHaveTextContent('Exporting LLM usage as CSV');
    expect(saved).toEqual([]);

    body.send(CSV);
    body.end();
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.name).toBe(NAME);
    expect(saved[0]!.blob.type).toBe('text/csv;charset=utf-8');
    expect(await readBlob(saved[0]!.blob)).toBe('x'.repeat(1_200_000) + CSV);
    expect(await screen.findByRole('button', { name: 'Export CSV of LLM usage' })).not.toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(toasts()).toHaveTextContent(`Exported LLM usage to ${NAME}`);
  });

  it('resolves a relative range when pressed', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-20T12:00:00.000Z'), toFake: ['Date'] });
    const api = fakeApi({ 'GET /api/metrics/export/:panel': fileResponse(CSV) });
    const user = userEvent.setup();
    renderWithProviders(<PanelExportButton panel="top-chats" range={{ kind: 'relative', value: '7d' }} />);
    await user.click(screen.getByRole('button', { name: 'Export CSV of top chats' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(Object.fromEntries(api.requestsTo('/api/metrics/export/top-chats.csv')[0]!.query)).toEqual({
      from: '2026-11-13T12:00:00.000Z',
      to: '2026-11-20T12:00:00.000Z',
    });
  });

  it("asks for the server's default range when the panel names none (the integrations' 24 hours)", async () => {
    const api = fakeApi({ 'GET /api/metrics/export/:panel': fileResponse(CSV) });
    const user = userEvent.setup();
    renderWithProviders(<PanelExportButton panel="integrations" />);
    await user.click(screen.getByRole('button', { name: 'Export CSV of integrations' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect([...api.requestsTo('/api/metrics/export/integrations.csv')[0]!.query]).toEqual([]);
  });

  it('works from the keyboard, says Preparing until the answer comes, and Cancel stops it', async () => {
    let refuse!: (error: Error) => void;
    const api = fakeApi({
      'GET /api/metrics/export/:panel': () =>
        new Promise<Response>((_, reject) => {
          refuse = reject;
        }),
    });
    const user = userEvent.setup();
    renderWithProviders(<PanelExportButton panel="integrations" range={CUSTOM} />);
    screen.getByRole('button', { name: 'Export CSV of integrations' }).focus();
    await user.keyboard('{Enter}');

    expect(await screen.findByRole('button', { name: 'Preparing...' })).toHaveFocus();
    // Pressing it again does not start a second download.
    await user.keyboard('{Enter}');
    expect(api.requestsTo('/api/metrics/export/integrations.csv')).toHaveLength(1);

    // fetch gives up when its signal is aborted, as a browser's does.
    const [, init] = vi.mocked(globalThis.fetch).mock.calls.at(-1)!;
    init?.signal?.addEventListener('abort', () => refuse(new DOMException('Aborted', 'AbortError')));
    await user.tab();
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('button', { name: 'Export CSV of integrations' })).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(saved).toEqual([]);
  });

  it("shows the server's reason when it refuses, and a download broken off part way as failed", async () => {
    const body = controlledBody();
    fakeApi({
      'GET /api/metrics/export/:panel': [
        jsonResponse(
          {
            detail: 'A range spans at most 92 days',
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
    renderWithProviders(<PanelExportButton panel="top-users" range={CUSTOM} />);

    await user.click(screen.getByRole('button', { name: 'Export CSV of top users' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to export top users');
    expect(screen.getByRole('alert')).toHaveTextContent('A range spans at most 92 days');

    await user.click(screen.getByRole('button', { name: 'Export CSV of top users' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    body.send(CSV);
    body.fail();
    expect(await screen.findByRole('alert')).toHaveTextContent('The export did not finish');
    expect(saved).toEqual([]);
  });
});
