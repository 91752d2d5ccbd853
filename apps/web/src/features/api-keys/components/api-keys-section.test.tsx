import { LLM_CONTENT_REDACTION_PRESETS, type ApiKey, type SessionUser } from '@lumi/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { fakeApi } from '@/test/fake-api';
import { jsonResponse, renderWithProviders } from '@/test/render-with-providers';
import { ApiKeysSection } from './api-keys-section';

function signIn(permissions: string[]) {
  const user: SessionUser = {
    id: 1,
    username: 'admin',
    email: 'admin@example.com',
    name: 'Admin',
    role: 'keeper',
    roles: [{ id: 5, name: 'keeper', permissions }],
    pending_action: null,
  };
  useAuthStore.setState({ user, accessToken: 'token', isAuthenticated: true, isLoading: false });
}

const botKey: ApiKey = {
  id: 7,
  name: 'production-bot',
  prefix: 'lumi_Ab12Cd3',
  scopes: ['ingest:write', 'config:read'],
  created_at: '2025-06-01T10:00:00Z',
  created_by: 'admin',
  last_used_at: null,
  expires_at: null,
  revoked_at: null,
  capture_content: false,
  content_redactions: [],
  status: 'active',
};

/** A small in-memory key store behind the three endpoints. */
function serveKeys(initial: ApiKey[]) {
  let keys = [...initial];
  return fakeApi({
    'GET /api/admin/api-keys': () => jsonResponse(keys),
    'POST /api/admin/api-keys': (request) => {
      const body = request.body as { name: string; scopes: ApiKey['scopes']; expires_at: string | null };
      const created = {
        ...botKey,
        id: 8,
        name: body.name,
        scopes: body.scopes,
        expires_at: body.expires_at,
        prefix: 'lumi_Zz99Yy8',
      };
      keys = [created, ...keys];
      return jsonResponse({ ...created, key: 'lumi_Zz99Yy8secretsecretsecret' }, 201);
    },
    'PUT /api/admin/api-keys/:id/content': (request, params) => {
      const body = request.body as Pick<ApiKey, 'capture_content' | 'content_redactions'>;
      keys = keys.map((key) => (key.id === Number(params.id) ? { ...key, ...body } : key));
      return jsonResponse(keys.find((key) => key.id === Number(params.id)));
    },
    'DELETE /api/admin/api-keys/:id': (_request, params) => {
      const id = Number(params.id);
      keys = keys.map((key) =>
        key.id === id ? { ...key, status: 'revoked', revoked_at: '2025-06-02T09:00:00Z' } : key,
      );
      return jsonResponse(keys.find((key) => key.id === id));
    },
  });
}

describe('ApiKeysSection', () => {
  afterEach(() => useAuthStore.getState().clear());

  it('renders nothing and asks nothing without admin:keys:write', () => {
    signIn(['admin:audit:read']);
    const api = fakeApi();
    const { container } = renderWithProviders(<ApiKeysSection />, { path: '/admin' });
    expect(container).toBeEmptyDOMElement();
    expect(api.requests).toEqual([]);
  });

  it('lists keys with scopes, prefix, dates and status', async () => {
    signIn(['admin:keys:write']);
    serveKeys([
      botKey,
      { ...botKey, id: 3, name: 'old-bot', status: 'revoked', revoked_at: '2025-05-01T00:00:00Z' },
    ]);
    renderWithProviders(<ApiKeysSection />, { path: '/admin' });

    const row = (await screen.findByText('production-bot')).closest('tr')!;
    expect(row).toHaveTextContent('ingest:write');
    expect(row).toHaveTextContent('config:read');
    expect(row).toHaveTextContent('lumi_Ab12Cd3…');
    expect(row).toHaveTextContent('Never');
    expect(row).toHaveTextContent('Active');
    const old = screen.getByText('old-bot').closest('tr')!;
    expect(old).toHaveTextContent('Revoked');
    expect(within(old).queryByRole('button', { name: 'Revoke old-bot' })).not.toBeInTheDocument();
  });

  it("shows a bot key's latest ignored spans and why, so a developer can see why nothing shows up", async () => {
    signIn(['admin:keys:write']);
    const api = serveKeys([botKey, { ...botKey, id: 9, name: 'reader', scopes: ['config:read'] }]);
    api.route({
      'GET /api/admin/api-keys/7/ignored-spans': jsonResponse({
        spans: [
          {
            received_at: '2025-06-02T09:00:00Z',
            trace_id: 'ab'.repeat(16),
            span_id: 'cd'.repeat(8),
            name: 'anthropic.messages.create',
            reason: 'counted already under its parent',
          },
        ],
      }),
    });
    renderWithProviders(<ApiKeysSection />, { path: '/admin' });
    const reader = (await screen.findByText('reader')).closest('tr')!;
    // Only a key that may export spans has any.
    expect(within(reader).queryByRole('button', { name: /Ignored spans/ })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Ignored spans of production-bot' }));
    const dialog = screen.getByRole('dialog', { name: 'Ignored Spans: production-bot' });
    const row = (await within(dialog).findByText('anthropic.messages.create')).closest('tr')!;
    expect(row).toHaveTextContent('cdcdcdcdcdcdcdcd');
    expect(row).toHaveTextContent('counted already under its parent');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('creates a key and shows it once, with a copy button', async () => {
    signIn(['admin:keys:write']);
    serveKeys([]);
    const writeText = vi.fn<(text: string) => Promise<void>>().mockResolvedValue();
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderWithProviders(<ApiKeysSection />, { path: '/admin' });
    expect(await screen.findByText('No API keys yet')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Create API Key' }));
    const dialog = screen.getByRole('dialog', { name: 'Create API Key' });
    for (const checkbox of within(dialog).getAllByRole('checkbox')) expect(checkbox).not.toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: /ingest:write/ })).toHaveAccessibleDescription(
      /Report telemetry/,
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Key' }));
    expect(within(dialog).getByText('Name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose at least one scope')).toBeInTheDocument();

    await userEvent.type(within(dialog).getByLabelText('Name'), 'staging-bot');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /templates:read/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Key' }));

    const created = await screen.findByRole('dialog', { name: 'API Key Created' });
    expect(within(created).getByLabelText('API key for staging-bot')).toHaveValue(
      'lumi_Zz99Yy8secretsecretsecret',
    );
    await userEvent.click(within(created).getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('lumi_Zz99Yy8secretsecretsecret');
    expect(within(created).getByText('The key is on the clipboard.')).toBeInTheDocument();

    await userEvent.click(within(created).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByText('staging-bot')).toBeInTheDocument();
    expect(screen.queryByText('lumi_Zz99Yy8secretsecretsecret')).not.toBeInTheDocument();
  });

  it('selects the key for copying by hand when the clipboard is not available', async () => {
    signIn(['admin:keys:write']);
    serveKeys([]);
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    renderWithProviders(<ApiKeysSection />, { path: '/admin' });

    await userEvent.click(await screen.findByRole('button', { name: 'Create API Key' }));
    const dialog = screen.getByRole('dialog', { name: 'Create API Key' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'bot');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /ingest:write/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Key' }));
    const created = await screen.findByRole('dialog', { name: 'API Key Created' });
    await userEvent.click(within(created).getByRole('button', { name: 'Copy' }));

    expect(within(created).getByText(/press Ctrl\+C/)).toBeInTheDocument();
    const input = within(created).getByLabelText<HTMLInputElement>('API key for bot');
    expect(input.selectionEnd! - input.selectionStart!).toBe(input.value.length);
  });

  it('revokes a key after confirmation', async () => {
    signIn(['admin:keys:write']);
    const api = serveKeys([botKey]);
    renderWithProviders(<ApiKeysSection />, { path: '/admin' });

    await userEvent.click(await screen.findByRole('button', { name: 'Revoke production-bot' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Revoke API Key' });
    expect(confirm).toHaveTextContent('Anything using this key loses access at once.');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Revoke' }));

    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(api.requests.some((r) => r.method === 'DELETE' && r.url === '/api/admin/api-keys/7')).toBe(true);
    const row = screen.getByText('production-bot').closest('tr')!;
    await waitFor(() => expect(row).toHaveTextContent('Revoked'));
  });

  it('turns on keeping content with redaction patterns, one per line, common ones a click away', async () => {
    signIn(['admin:keys:write']);
    const api = serveKeys([botKey]);
    renderWithProviders(<ApiKeysSection />, { path: '/admin' });

    const row = (await screen.findByText('production-bot')).closest('tr')!;
    expect(row).toHaveTextContent('Not kept');
    await userEvent.click(within(row).getByRole('button', { name: 'Content settings of production-bot' }));
    const dialog = screen.getByRole('dialog', { name: 'Content: production-bot' });
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /Keep prompts and completions/ }));
    await userEvent.type(within(dialog).getByLabelText(/Redact before storing/), 'secret-\\d+');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Email addresses' }));
    expect(within(dialog).getByRole('button', { name: 'Email addresses' })).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const put = api.requests.find((r) => r.method === 'PUT');
    expect(put?.url).toBe('/api/admin/api-keys/7/content');
    expect(put?.body).toEqual({
      capture_content: true,
      content_redactions: ['secret-\\d+', LLM_CONTENT_REDACTION_PRESETS[0].pattern],
    });
    await waitFor(() => expect(row).toHaveTextContent('Kept, 2 redacted'));
  });
});
