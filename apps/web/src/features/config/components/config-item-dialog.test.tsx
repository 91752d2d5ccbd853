import { CONFIG_MESSAGES } from '@lumi/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi } from '@/test/fake-api';
import { jsonResponse, renderWithProviders, toasts } from '@/test/render-with-providers';
import { configItem } from '../test/fixtures';
import { ConfigItemDialog } from './config-item-dialog';

vi.mock('@/components/code-editor/code-editor', () => import('@/components/code-editor/code-editor.mock'));

function renderDialog(item = configItem()) {
  const onOpenChange = vi.fn();
  renderWithProviders(<ConfigItemDialog open onOpenChange={onOpenChange} domain="moods" item={item} />);
  return { onOpenChange };
}

const content = () => screen.getByLabelText(/^Content \(/);

describe('ConfigItemDialog', () => {
  it('starts a new item in the mode it is given, active, with priority 1', () => {
    renderWithProviders(<ConfigItemDialog open onOpenChange={vi.fn()} domain="moods" newItemMode="text" />);
    expect(screen.getByRole('dialog', { name: 'Add Item' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Text' })).toBeChecked();
    expect(screen.getByLabelText('Priority')).toHaveValue(1);
    expect(screen.getByRole('checkbox', { name: /Active/ })).toBeChecked();
  });

  it('opens object content in JSON mode and text content in text mode', () => {
    renderDialog();
    expect(screen.getByRole('radio', { name: 'JSON' })).toBeChecked();
    expect(content()).toHaveValue('{\n  "tone": "warm"\n}');
    expect(content()).toHaveAttribute('data-language', 'json');
  });

  it('opens text content in text mode', () => {
    renderDialog(configItem({ content: 'Be kind' }));
    expect(screen.getByRole('radio', { name: 'Text' })).toBeChecked();
    expect(content()).toHaveAttribute('data-language', 'plaintext');
  });

  it('shows the validation messages and sends nothing', async () => {
    const api = fakeApi();
    renderDialog();
    await userEvent.clear(screen.getByLabelText('Name'));
    await userEvent.clear(content());
    await userEvent.type(content(), '[[1, 2]');
    await userEvent.clear(screen.getByLabelText('Priority'));
    await userEvent.type(screen.getByLabelText('Priority'), '11');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Invalid JSON in content field')).toBeInTheDocument();
    expect(screen.getByText(CONFIG_MESSAGES.priority)).toBeInTheDocument();
    expect(content()).toHaveAttribute('aria-invalid', 'true');
    expect(api.requests).toEqual([]);
  });

  it('drops the JSON message when the content becomes text', async () => {
    renderDialog();
    await userEvent.type(content(), ',');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Invalid JSON in content field')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('radio', { name: 'Text' }));
    await waitFor(() => expect(screen.queryByText('Invalid JSON in content field')).not.toBeInTheDocument());
  });

  it('sends the loaded version, parsed content and split tags, then closes', async () => {
    const api = fakeApi({ 'PUT /api/admin/api/config/moods/1': jsonResponse(configItem({ version: 3 })) });
    const { onOpenChange } = renderDialog();
    await userEvent.clear(screen.getByLabelText('Tags'));
    await userEvent.type(screen.getByLabelText('Tags'), ' happy, , warm ,happy');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(toasts()).toHaveTextContent("'Cheerful' saved");
    const [request] = api.requests;
    expect(request?.url).toBe('/api/admin/api/config/moods/1');
    expect(request?.method).toBe('PUT');
    expect(request?.body).toEqual({
      name: 'Cheerful',
      description: 'Sunny days',
      content: { tone: 'warm' },
      priority: 3,
      tags: ['happy', 'warm'],
      is_active: true,
      version: 2,
    });
  });

  it("puts the server's field messages under their fields", async () => {
    fakeApi({
      'PUT /api/admin/api/config/moods/1': jsonResponse(
        {
          detail: 'Validation failed',
          code: 'validation_failed',
          errors: [{ path: 'tags.1', message: CONFIG_MESSAGES.tagTooLong }],
          request_id: '1',
        },
        422,
      ),
    });
    renderDialog();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(CONFIG_MESSAGES.tagTooLong)).toBeInTheDocument();
    expect(screen.getByLabelText('Tags')).toHaveAttribute('aria-invalid', 'true');
  });

  it("shows the server's detail, or 'Failed to create configuration' without one", async () => {
    fakeApi({
      'POST /api/admin/api/config/moods': [
        jsonResponse(
          { detail: "A moods item named 'Calm' already exists", code: 'conflict', request_id: '1' },
          409,
        ),
        new Response('oops', { status: 500 }),
      ],
    });
    renderWithProviders(<ConfigItemDialog open onOpenChange={vi.fn()} domain="moods" newItemMode="text" />);
    await userEvent.type(screen.getByLabelText('Name'), 'Calm');
    await userEvent.type(content(), 'Breathe');

    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText("A moods item named 'Calm' already exists")).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to create configuration');
  });

  describe('when someone else saved first', () => {
    const theirs = configItem({ version: 5, content: { tone: 'cold' }, updated_by: 'bob' });

    function answerConflictThen(...then: Response[]) {
      const conflict = jsonResponse(
        { detail: "bob changed 'Cheerful' since you loaded it", code: 'conflict', current: theirs },
        409,
      );
      return fakeApi({ 'PUT /api/admin/api/config/moods/1': [conflict, ...then] });
    }

    async function saveWithPriority(priority: string) {
      await userEvent.clear(screen.getByLabelText('Priority'));
      await userEvent.type(screen.getByLabelText('Priority'), priority);
      await userEvent.click(screen.getByRole('button', { name: 'Save' }));
      await screen.findByRole('button', { name: 'Overwrite with mine' });
    }

    it('shows both versions side by side', async () => {
      answerConflictThen();
      renderDialog();
      await saveWithPriority('7');

      expect(screen.getByRole('alert')).toHaveTextContent("bob changed 'Cheerful' since you loaded it");
      expect(screen.getByText(/Their version 5 was saved by bob/)).toBeInTheDocument();
      expect(screen.getByText('Priority').closest('div')).toHaveTextContent('Theirs: 3Yours: 7');
      expect(screen.getByText('"tone": "cold"', { exact: false }).closest('del')).not.toBeNull();
    });

    it("overwrites with the current version's number", async () => {
      const api = answerConflictThen(jsonResponse(configItem({ version: 6 })));
      const { onOpenChange } = renderDialog();
      await saveWithPriority('7');

      await userEvent.click(screen.getByRole('button', { name: 'Overwrite with mine' }));
      await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
      expect(api.requests[1]?.body).toMatchObject({ version: 5, priority: 7, content: { tone: 'warm' } });
    });

    it('reloads their version into the form and saves on top of it', async () => {
      const api = answerConflictThen(jsonResponse(configItem({ version: 6 })));
      renderDialog();
      await saveWithPriority('7');

      await userEvent.click(screen.getByRole('button', { name: 'Reload their version' }));
      expect(content()).toHaveValue('{\n  "tone": "cold"\n}');
      expect(screen.getByLabelText('Priority')).toHaveValue(3);
      await userEvent.click(screen.getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(api.requests).toHaveLength(2));
      expect(api.requests[1]?.body).toMatchObject({ version: 5, content: { tone: 'cold' } });
    });
  });
});
