import type { Template } from '@lumi/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { jsonResponse, renderWithProviders, toasts } from '@/test/render-with-providers';
import { adminUser, signIn } from '@/test/session-users';
import { channel, fakeMessagingApi, renderedFor, template, topic } from '../../test/fake-messaging-api';
import { MessagesPage } from '../../components/messages-page';

vi.mock('@/components/code-editor/code-editor', () => import('@/components/code-editor/code-editor.mock'));

async function openNewTemplate() {
  renderWithProviders(<MessagesPage />, { path: '/messages' });
  await userEvent.click(await screen.findByRole('button', { name: 'Create New Template' }));
  return screen.getByRole('heading', { name: 'Create New Template' });
}

describe('Template editor', () => {
  beforeEach(() => signIn());
  afterEach(() => useAuthStore.getState().clear());

  it('allows Pin by Default only while Allow Pinning is on', async () => {
    fakeMessagingApi({});
    await openNewTemplate();
    const pin = screen.getByRole('checkbox', { name: /Pin by Default/ });
    const allow = screen.getByRole('checkbox', { name: 'Allow Pinning' });
    expect(pin).toBeDisabled();

    await userEvent.click(allow);
    expect(pin).toBeEnabled();
    await userEvent.click(pin);
    expect(pin).toBeChecked();

    await userEvent.click(allow);
    expect(pin).toBeDisabled();
    expect(pin).not.toBeChecked();
  });

  it('appends a variable to the end of the content', async () => {
    fakeMessagingApi({});
    await openNewTemplate();
    const content = screen.getByRole('textbox', { name: 'Template Content' });
    fireEvent.change(content, { target: { value: 'Price: ' } });

    const variables = screen.getByRole('region', { name: 'Variable list' });
    expect(within(variables).getByText('General')).toBeInTheDocument();
    expect(within(variables).getByText('Market')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Insert {{price_usd}}' }));
    expect(content).toHaveValue('Price: {{price_usd}}');
    await userEvent.click(screen.getByRole('button', { name: 'Insert {{token_name}}' }));
    expect(content).toHaveValue('Price: {{price_usd}}{{token_name}}');
  });

  it('offers the topics of the chosen channel, and none without a channel', async () => {
    fakeMessagingApi({
      channels: [channel(1, { channel_name: 'Alerts' }), channel(2, { channel_name: 'Quiet' })],
      topics: { 1: [topic(7, 1, { topic_name: 'Whales' })] },
    });
    await openNewTemplate();
    const topicSelect = screen.getByRole('combobox', { name: 'Topic (Optional)' });
    expect(topicSelect).toBeDisabled();

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Channel' }), 'Alerts');
    await waitFor(() => expect(topicSelect).toBeEnabled());
    expect(
      within(topicSelect)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['No Topic', 'Whales']);
    await userEvent.selectOptions(topicSelect, 'Whales');

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Channel' }), 'Quiet');
    await waitFor(() => expect(topicSelect).toBeDisabled());
    expect(topicSelect).toHaveValue('');
  });

  it('creates a template, then closes the editor and reloads the list', async () => {
    const templates: Template[] = [];
    const { requests } = fakeMessagingApi({
      channels: [channel(1, { channel_name: 'Alerts' })],
      templates,
      routes: {
        'POST /templates': ({ body }) => {
          templates.push(template(9, { template_name: 'Fresh' }));
          return jsonResponse(template(9, body as object), 201);
        },
      },
    });
    await openNewTemplate();

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Template name is required')).toBeInTheDocument();
    expect(screen.getByText('Channel is required')).toBeInTheDocument();
    expect(screen.getByText('Template content is required')).toBeInTheDocument();

    await userEvent.type(screen.getByRole('textbox', { name: 'Template Name' }), 'Fresh');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Message Type' }), 'Alert');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Channel' }), 'Alerts');
    fireEvent.change(screen.getByRole('textbox', { name: 'Template Content' }), { target: { value: 'Hi' } });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Parse Mode' }), 'MarkdownV2');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Fresh')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Create New Template' })).not.toBeInTheDocument();
    expect(toasts()).toHaveTextContent("Template 'Fresh' created");
    expect(requests.find((r) => r.method === 'POST' && r.path === '/templates')?.body).toEqual({
      template_name: 'Fresh',
      message_type: 'alert',
      channel_id: 1,
      topic_id: null,
      description: '',
      template_content: 'Hi',
      parse_mode: 'MarkdownV2',
      enabled: true,
      disable_web_preview: false,
      disable_notification: false,
      allow_pinning: false,
      pin_by_default: false,
      split_long_messages: false,
    });
  });

  it("shows the server's detail, or 'Failed to save template', when a save fails", async () => {
    let answer = jsonResponse(
      { detail: "A message template named 'Old' already exists", code: 'conflict' },
      409,
    );
    fakeMessagingApi({
      templates: [template(4, { template_name: 'Old' })],
      routes: { 'PUT /templates/4': () => answer },
    });
    renderWithProviders(<MessagesPage />, { path: '/messages' });
    await userEvent.click(await screen.findByRole('button', { name: /Old/ }));
    expect(screen.getByRole('heading', { name: 'Edit Template: Old' })).toBeInTheDocument();
    expect(screen.getByText('Version 1')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "A message template named 'Old' already exists",
    );

    answer = new Response('oops', { status: 500 });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Failed to save template'));
  });

  it('explains a stale save and reloads the template as it is now', async () => {
    const current = template(4, { template_name: 'Old', version: 3, template_content: 'Newer text' });
    const { requests } = fakeMessagingApi({
      templates: [template(4, { template_name: 'Old' })],
      routes: {
        'PUT /templates/4': jsonResponse(
          { detail: "ann saved 'Old' since you loaded it (now version 3).", code: 'conflict', current },
          409,
        ),
      },
    });
    renderWithProviders(<MessagesPage />, { path: '/messages' });
    await userEvent.click(await screen.findByRole('button', { name: /Old/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This template was changed meanwhile');
    expect(alert).toHaveTextContent("ann saved 'Old' since you loaded it (now version 3).");
    expect(requests.find((r) => r.method === 'PUT')?.body).toMatchObject({ version: 1 });

    await userEvent.click(within(alert).getByRole('button', { name: 'Reload template' }));
    expect(screen.getByText('Version 3')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Template Content' })).toHaveValue('Newer text');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('Template editor: delete and read-only', () => {
  afterEach(() => useAuthStore.getState().clear());

  it('deletes a template after confirming, with the version shown, then closes and reloads the list', async () => {
    signIn();
    const templates = [
      template(4, { template_name: 'Old', version: 2 }),
      template(5, { template_name: 'Kept' }),
    ];
    const { requests } = fakeMessagingApi({
      templates,
      routes: {
        'DELETE /templates/4': () => {
          templates.splice(0, 1);
          return jsonResponse({ ok: true });
        },
      },
    });
    renderWithProviders(<MessagesPage />, { path: '/messages' });
    await userEvent.click(await screen.findByRole('button', { name: /Old/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));

    const dialog = screen.getByRole('alertdialog', { name: "Delete template 'Old'?" });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await userEvent.click(
      within(screen.getByRole('alertdialog', { name: "Delete template 'Old'?" })).getByRole('button', {
        name: 'Delete',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('button', { name: /Old/ })).not.toBeInTheDocument());
    expect(screen.queryByRole('heading', { name: 'Edit Template: Old' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Kept/ })).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'DELETE')?.query.get('version')).toBe('2');
    expect(toasts()).toHaveTextContent("Template 'Old' deleted");
  });

  it('keeps the confirmation open with the reason when the delete is refused', async () => {
    signIn();
    fakeMessagingApi({
      templates: [template(4, { template_name: 'Old' })],
      routes: {
        'DELETE /templates/4': jsonResponse(
          { detail: "ann saved 'Old' since you loaded it (now version 2).", code: 'conflict' },
          409,
        ),
      },
    });
    renderWithProviders(<MessagesPage />, { path: '/messages' });
    await userEvent.click(await screen.findByRole('button', { name: /Old/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent("ann saved 'Old' since you loaded it");
  });

  it('shows a reader the template read-only: no Save, Delete or Test, and read-only wording', async () => {
    signIn({ ...adminUser, roles: [{ id: 3, name: 'viewer', permissions: ['templates:read'] }] });
    fakeMessagingApi({ templates: [template(4, { template_name: 'Old' })] });
    renderWithProviders(<MessagesPage />, { path: '/messages' });
    await userEvent.click(await screen.findByRole('button', { name: /Old/ }));

    expect(screen.getByRole('heading', { name: 'Template: Old' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Template Name' })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'Template Content' })).toHaveAttribute('readonly');
    for (const name of ['Save', 'Delete', 'Test', 'Cancel']) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Preview' })).toBeInTheDocument();
  });

  it('offers Test to a reader who may send tests', async () => {
    signIn({
      ...adminUser,
      roles: [{ id: 3, name: 'tester', permissions: ['templates:read', 'templates:send'] }],
    });
    fakeMessagingApi({ templates: [template(4, { template_name: 'Old' })] });
    renderWithProviders(<MessagesPage />, { path: '/messages' });
    await userEvent.click(await screen.findByRole('button', { name: /Old/ }));
    expect(screen.getByRole('button', { name: 'Test' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  it('shares one sample data box between Preview and Test', async () => {
    signIn();
    const { requests } = fakeMessagingApi({
      templates: [template(3, { template_name: 'Saved' })],
      routes: {
        'POST /templates/3/test': jsonResponse({ success: true, telegram_message_id: 1, pinned: false }),
      },
    });
    renderWithProviders(<MessagesPage />, { path: '/messages' });
    await userEvent.click(await screen.findByRole('button', { name: /Saved/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }));
    await userEvent.click(screen.getByRole('button', { name: 'Test' }));

    const boxes = await screen.findAllByRole('textbox', { name: 'Sample data (JSON)' });
    expect(boxes).toHaveLength(1);
    fireEvent.change(boxes[0]!, { target: { value: '{"token_name": "Bonk"}' } });
    await waitFor(() =>
      expect(requests.filter((r) => r.path === '/templates/3/render').at(-1)?.body).toEqual({
        data: { token_name: 'Bonk' },
      }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Send Test Message' }));
    await waitFor(() =>
      expect(requests.find((r) => r.path === '/templates/3/test')?.body).toMatchObject({
        data: { token_name: 'Bonk' },
      }),
    );
  });
});

describe('Template editor: saving cannot break sending', () => {
  beforeEach(() => signIn());
  afterEach(() => useAuthStore.getState().clear());

  const refusedMarkup = (content: string) =>
    jsonResponse({
      ...renderedFor(content, {}),
      success: false,
      error: 'Rendered message line 1, column 13: <b> is closed by </i>',
      problems: [
        {
          severity: 'error',
          source: 'message',
          message: "Telegram would refuse this message (can't parse entities): <b> is closed by </i>",
          line: 1,
          column: 13,
          template_position: { line: 2, column: 23 },
        },
      ],
    });

  it('shows what Telegram would refuse where it is in the content, and saves nothing', async () => {
    const { requests } = fakeMessagingApi({
      channels: [channel(1, { channel_name: 'Alerts' })],
      routes: {
        'POST /render': ({ body }) => {
          const content = (body as { template_content: string }).template_content;
          return content.includes('</i>') ? refusedMarkup(content) : jsonResponse(renderedFor(content, {}));
        },
        'POST /templates': ({ body }) => jsonResponse(template(9, body as Partial<Template>), 201),
      },
    });
    await openNewTemplate();
    await userEvent.type(screen.getByRole('textbox', { name: 'Template Name' }), 'Market dashboard');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Channel' }), 'Alerts');
    const content = screen.getByRole('textbox', { name: 'Template Content' });
    fireEvent.change(content, { target: { value: 'Prices\n<b>bold {{token_name}}</i>' } });

    const problems = await screen.findByText(/^Telegram would refuse this template with its example data/);
    expect(problems.parentElement).toHaveTextContent(
      "Line 2, column 23: Telegram would refuse this message (can't parse entities): <b> is closed by </i>",
    );
    expect(content).toHaveAttribute('aria-invalid', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/^Not saved: Line 2, column 23: /)).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST' && r.path === '/templates')).toEqual([]);

    // Fixed, the refusal goes and the template saves.
    fireEvent.change(content, { target: { value: 'Prices\n<b>bold {{token_name}}</b>' } });
    await waitFor(() => expect(screen.queryByText(/^Not saved/)).not.toBeInTheDocument());
    await waitFor(() => expect(content).not.toHaveAttribute('aria-invalid'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(requests.filter((r) => r.method === 'POST' && r.path === '/templates')).toHaveLength(1),
    );
  });

  it('saves content longer than one message once Split Long Messages is on', async () => {
    const tooLong = (content: string) =>
      jsonResponse({
        ...renderedFor(content, {}),
        success: false,
        length: 5000,
        error: 'The message is 5000 characters once formatting is removed; Telegram allows at most 4096',
        problems: [
          {
            severity: 'error',
            source: 'message',
            message:
              'The message is 5000 characters once formatting is removed; Telegram allows at most 4096',
            line: null,
            column: null,
          },
        ],
      });
    const { requests } = fakeMessagingApi({
      channels: [channel(1, { channel_name: 'Alerts' })],
      routes: {
        'POST /render': ({ body }) => tooLong((body as { template_content: string }).template_content),
        'POST /templates': ({ body }) => jsonResponse(template(9, body as Partial<Template>), 201),
      },
    });
    await openNewTemplate();
    await userEvent.type(screen.getByRole('textbox', { name: 'Template Name' }), 'Weekly report');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Channel' }), 'Alerts');
    fireEvent.change(screen.getByRole('textbox', { name: 'Template Content' }), {
      target: { value: 'A long report' },
    });
    expect(await screen.findByText(/^Telegram would refuse this template/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('checkbox', { name: /Split Long Messages/ }));
    await waitFor(() =>
      expect(screen.queryByText(/^Telegram would refuse this template/)).not.toBeInTheDocument(),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'POST' && r.path === '/templates')?.body).toMatchObject({
        split_long_messages: true,
      }),
    );
  });

  it("shows the server's refusal under the content with its line and column", async () => {
    fakeMessagingApi({
      channels: [channel(1, { channel_name: 'Alerts' })],
      templates: [template(3, { template_name: 'Market dashboard', channel_id: 1 })],
      routes: {
        'PUT /templates/3': () =>
          jsonResponse(
            {
              detail: 'The template cannot be saved: Line 1, column 5: Tags are not properly nested',
              code: 'validation_failed',
              errors: [
                { path: 'template_content', message: 'Tags are not properly nested', line: 1, column: 5 },
              ],
              request_id: 'r1',
            },
            422,
          ),
      },
    });
    renderWithProviders(<MessagesPage />, { path: '/messages' });
    await userEvent.click(await screen.findByRole('button', { name: /Market dashboard/ }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Template Content' }), {
      target: { value: 'Hi {{token_name}}!' },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Line 1, column 5: Tags are not properly nested')).toHaveClass(
      'text-destructive',
    );
  });
});

describe('Template editor: unsaved changes', () => {
  beforeEach(() => signIn());
  afterEach(() => useAuthStore.getState().clear());

  it('asks before Cancel or another template discards an edit, and keeps it when told to', async () => {
    fakeMessagingApi({
      channels: [channel(1)],
      templates: [
        template(3, { template_name: 'Market dashboard', channel_id: 1 }),
        template(4, { template_name: 'Price alert', channel_id: 1 }),
      ],
    });
    renderWithProviders(<MessagesPage />, { path: '/messages' });
    await userEvent.click(await screen.findByRole('button', { name: /Market dashboard/ }));
    const content = screen.getByRole('textbox', { name: 'Template Content' });
    fireEvent.change(content, { target: { value: 'An edit' } });

    await userEvent.click(screen.getByRole('button', { name: /Price alert/ }));
    const question = await screen.findByRole('alertdialog', { name: 'Discard unsaved changes?' });
    await userEvent.click(within(question).getByRole('button', { name: 'Keep editing' }));
    expect(screen.getByRole('heading', { name: /Edit Template: Market dashboard/ })).toBeInTheDocument();
    expect(content).toHaveValue('An edit');

    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Discard changes' }),
    );
    expect(await screen.findByText('Select a template to edit or create a new one')).toBeInTheDocument();

    // Nothing edited: no question.
    await userEvent.click(screen.getByRole('button', { name: /Price alert/ }));
    await userEvent.click(screen.getByRole('button', { name: /Market dashboard/ }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /Edit Template: Market dashboard/ })).toBeInTheDocument();
  });
});
