import type { LlmCallContent, LlmCallDetail } from '@lumi/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { fakeApi } from '@/test/fake-api';
import { jsonResponse, renderWithProviders } from '@/test/render-with-providers';
import { adminUser, signIn } from '@/test/session-users';
import { CallContent } from './call-content';

const call: LlmCallDetail = {
  id: '41',
  ts: '2026-11-20T12:29:00.000Z',
  provider: 'openai',
  model: 'gpt-4o',
  feature: 'reply',
  chat_id: '-1001',
  user_id: '42',
  input_tokens: 100,
  output_tokens: 50,
  usage_known: true,
  cost_usd: 0.01,
  cost_source: 'bot',
  latency_ms: 800,
  cached: false,
  success: true,
  error_type: null,
  client_id: 'e1',
  trace_id: null,
  span_id: null,
  response_model: null,
  api_key: { id: 7, name: 'production-bot' },
  content: 'kept',
};

const content: LlmCallContent = {
  prompt: [
    { role: 'system', text: 'You are Lumi.' },
    { role: 'user', text: 'My mail is [redacted]' },
  ],
  completion: [{ role: 'assistant', text: 'Noted.' }],
  truncated: false,
  redactions: 1,
  expires_at: '2026-11-27T12:29:00.000Z',
};

describe('CallContent', () => {
  afterEach(() => useAuthStore.getState().clear());

  it('reads the content only when asked, since each read is an audited view', async () => {
    signIn();
    const api = fakeApi({ 'GET /api/metrics/llm/calls/:id/content': () => jsonResponse(content) });
    renderWithProviders(<CallContent call={call} />);

    expect(screen.getByText(/Showing it is recorded in the audit log/)).toBeInTheDocument();
    expect(api.requests).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Show Prompt and Completion' }));

    const prompt = await screen.findByRole('region', { name: 'Prompt' });
    expect(prompt).toHaveTextContent('systemYou are Lumi.');
    expect(prompt).toHaveTextContent('My mail is [redacted]');
    expect(screen.getByRole('region', { name: 'Completion' })).toHaveTextContent('Noted.');
    expect(screen.getByText(/^1 match redacted before storing/)).toBeInTheDocument();
    expect(api.requests.map((r) => r.url)).toEqual(['/api/metrics/llm/calls/41/content']);
  });

  it('says who may read it without llm:content:read, and asks nothing', () => {
    signIn({
      ...adminUser,
      role: 'operator',
      roles: [{ id: 2, name: 'operator', permissions: ['metrics:read'] }],
    });
    const api = fakeApi();
    renderWithProviders(<CallContent call={call} />);
    expect(screen.getByText(/needs the llm:content:read permission/)).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });

  it('explains content that was never kept or has been removed', () => {
    signIn();
    const none = renderWithProviders(<CallContent call={{ ...call, content: 'none' }} />);
    expect(screen.getByText(/does not keep content/)).toBeInTheDocument();
    none.unmount();
    renderWithProviders(<CallContent call={{ ...call, content: 'removed' }} />);
    expect(screen.getByText(/LUMI_CONTENT_RETENTION_DAYS/)).toBeInTheDocument();
  });
});
