import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { jsonResponse, renderWithProviders } from '@/test/render-with-providers';
import { signIn } from '@/test/session-users';
import type { FakeRequest } from '@/test/fake-api';
import { fakeMessagingApi, renderedFor, template } from '../../test/fake-messaging-api';
import { DEBOUNCE_MS } from '../hooks/use-rendered-preview';
import { MessagesPage } from '../../components/messages-page';

vi.mock('@/components/code-editor/code-editor', () => import('@/components/code-editor/code-editor.mock'));

const renders = (requests: FakeRequest[]) => requests.filter((r) => r.path.endsWith('/render'));
/** The Preview panel's renderings of the saved template (the save check renders through /render). */
const savedRenders = (requests: FakeRequest[]) => requests.filter((r) => r.path === '/templates/3/render');

async function openPreview(name: string | null) {
  renderWithProviders(<MessagesPage />, { path: '/messages' });
  if (name) await userEvent.click(await screen.findByRole('button', { name: new RegExp(name) }));
  else await userEvent.click(await screen.findByRole('button', { name: 'Create New Template' }));
  await userEvent.click(screen.getByRole('button', { name: 'Preview', pressed: false }));
  return screen.findByRole('textbox', { name: 'Sample data (JSON)' });
}

describe('Preview panel', () => {
  beforeEach(() => signIn());
  afterEach(() => useAuthStore.getState().clear());

  it('renders the saved template with sample data of the variables it uses, and only those', async () => {
    const { requests } = fakeMessagingApi({
      templates: [template(3, { template_name: 'Saved', template_content: 'Hi {{token_name}}' })],
      routes: {
        'POST /templates/3/render': ({ body }) =>
          jsonResponse({ ...renderedFor('<b>Saved</b>', (body as { data: unknown }).data), length: 5 }),
      },
    });
    const sample = await openPreview('Saved');
    expect(JSON.parse((sample as HTMLTextAreaElement).value)).toEqual({ token_name: 'Pepe' });

    const figure = await screen.findByRole('figure', { name: 'Rendered message' });
    expect(figure.querySelector('strong')).toHaveTextContent('Saved');
    expect(figure).toHaveTextContent('5 / 4,096 characters');
    // The saved template through its own render call; the editor's save check renders the content too.
    expect(renders(requests).map((r) => r.path)).toEqual(
      expect.arrayContaining(['/templates/3/render', '/render']),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Show raw text' }));
    expect(screen.getByRole('figure')).toHaveTextContent('<b>Saved</b>');
  });

  it('renders unsaved content through /render while creating, and again when it changes', async () => {
    const { requests } = fakeMessagingApi({});
    await openPreview(null);
    expect(screen.getByText('Write the template content to see a preview.')).toBeInTheDocument();

    fireEvent.change(screen.getByRole('textbox', { name: 'Template Content' }), { target: { value: 'One' } });
    expect(await screen.findByText('Rendering...')).toBeInTheDocument();
    await screen.findByText(/^One /);
    fireEvent.change(screen.getByRole('textbox', { name: 'Template Content' }), { target: { value: 'Two' } });
    await screen.findByText(/^Two /);
    expect(renders(requests).map((r) => (r.body as { template_content: string }).template_content)).toEqual([
      'One',
      'Two',
    ]);
    expect(renders(requests)[0]?.body).toMatchObject({ parse_mode: 'HTML' });
  });

  it('ignores sample JSON edits that are not valid and uses the next valid one', async () => {
    const { requests } = fakeMessagingApi({ templates: [template(3, { template_name: 'Saved' })] });
    const sample = await openPreview('Saved');
    await waitFor(() => expect(savedRenders(requests)).toHaveLength(1));

    // Fake timers from before the edit, so the preview's debounce runs on them and is passed for sure.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      fireEvent.change(sample, { target: { value: '{"token_name": "Bo' } });
      expect(
        screen.getByText(
          /^Not valid JSON: .*Sending is off until it is fixed; the preview shows the last valid data\.$/,
        ),
      ).toHaveClass('text-destructive');
      await vi.advanceTimersByTimeAsync(DEBOUNCE_MS * 2);
      expect(savedRenders(requests)).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }

    fireEvent.change(sample, { target: { value: '{"token_name": "Bonk"}' } });
    await waitFor(() => expect(savedRenders(requests)).toHaveLength(2));
    expect(savedRenders(requests)[1]?.body).toEqual({ data: { token_name: 'Bonk' } });
  });

  it.each([
    [
      'the response error',
      jsonResponse({ ...renderedFor('', {}), success: false, error: 'Line 1: bad' }),
      'Line 1: bad',
    ],
    [
      'the server detail',
      jsonResponse({ detail: 'Template not found', code: 'not_found' }, 404),
      'Template not found',
    ],
    ['a fallback', new Response('oops', { status: 500 }), 'Failed to render template'],
  ])('shows %s when rendering fails', async (_name, answer, message) => {
    fakeMessagingApi({
      templates: [template(3, { template_name: 'Saved' })],
      routes: { 'POST /templates/3/render': answer },
    });
    await openPreview('Saved');
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });
});
