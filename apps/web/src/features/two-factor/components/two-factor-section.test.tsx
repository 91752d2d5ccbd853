import type { TwoFactorStatus } from '@lumi/contract';
import { TWO_FACTOR_MESSAGES } from '@lumi/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '@/lib/auth-store';
import { fakeApi, type FakeRoute } from '@/test/fake-api';
import { jsonResponse, renderWithProviders } from '@/test/render-with-providers';
import { signIn } from '@/test/session-users';
import { TwoFactorSection } from './two-factor-section';

const off: TwoFactorStatus = {
  enabled: false,
  enabled_at: null,
  pending: false,
  recovery_codes_left: 0,
  required: false,
};
const on: TwoFactorStatus = {
  ...off,
  enabled: true,
  enabled_at: '2026-11-20T10:00:00Z',
  recovery_codes_left: 10,
};
const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const codes = Array.from({ length: 10 }, (_, i) => `abcd${i}-2345${i}`);

function serve(status: FakeRoute, more: Record<string, FakeRoute> = {}) {
  return fakeApi({ 'GET /api/auth/2fa': status, ...more });
}

describe('Profile → Two-factor authentication', () => {
  beforeEach(() => signIn());
  afterEach(() => useAuthStore.getState().clear());

  it('sets it up: QR code and secret, a code, then the recovery codes once', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const api = serve([jsonResponse(off), jsonResponse(on)], {
      'POST /api/auth/2fa/setup': jsonResponse({
        secret,
        otpauth_url: `otpauth://totp/Lumi%20Admin:admin?secret=${secret}&issuer=Lumi%20Admin`,
      }),
      'POST /api/auth/2fa/enable': [
        jsonResponse(
          {
            detail: 'Check the input',
            code: 'validation_error',
            errors: [{ path: 'code', message: 'The code is not valid' }],
            request_id: '1',
          },
          422,
        ),
        jsonResponse({ recovery_codes: codes }),
      ],
    });
    renderWithProviders(<TwoFactorSection />);
    expect(await screen.findByText('Off')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Set up' }));
    expect(api.requestsTo('/api/auth/2fa/setup')).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Set up two-factor authentication' }));

    const qr = await screen.findByRole('img', { name: /QR code/ });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(screen.getByTestId('two-factor-secret')).toHaveTextContent(
      'JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Copy secret' }));
    expect(writeText).toHaveBeenCalledWith(secret);

    const code = screen.getByLabelText('Authentication code');
    await userEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText(TWO_FACTOR_MESSAGES.codeRequired)).toBeInTheDocument();
    await userEvent.type(code, '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('The code is not valid')).toBeInTheDocument();
    await userEvent.clear(code);
    await userEvent.type(code, '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Turn on' }));

    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(codes);
    expect(api.requestsTo('/api/auth/2fa/enable').map((r) => r.body)).toEqual([
      { code: '000000' },
      { code: '123456' },
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Copy codes' }));
    expect(writeText).toHaveBeenLastCalledWith(`${codes.join('\n')}\n`);

    const done = screen.getByRole('button', { name: 'Done' });
    expect(done).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: 'I have saved my recovery codes' }));
    await userEvent.click(done);
    expect(await screen.findByText('On')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).not.toBeInTheDocument();
    expect(screen.getByText(/10 recovery codes left/)).toBeInTheDocument();
  });

  it('turns it off with the password and a recovery code, after saying what that means', async () => {
    const api = serve([jsonResponse(on), jsonResponse(off)], {
      'POST /api/auth/2fa/disable': [
        jsonResponse(
          {
            detail: 'Check the input',
            code: 'validation_error',
            errors: [{ path: 'password', message: 'The password is not correct' }],
            request_id: '2',
          },
          422,
        ),
        jsonResponse({ ok: true }),
      ],
    });
    renderWithProviders(<TwoFactorSection />);
    await userEvent.click(await screen.findByRole('button', { name: 'Turn off' }));
    const dialog = screen.getByRole('dialog', { name: 'Turn off two-factor authentication?' });
    expect(dialog).toHaveTextContent('Your recovery codes stop working');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(await within(dialog).findByText('Password is required')).toBeInTheDocument();
    expect(api.requestsTo('/api/auth/2fa/disable')).toEqual([]);

    await userEvent.type(within(dialog).getByLabelText('Password'), 'wrong');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Use a recovery code instead' }));
    await userEvent.type(within(dialog).getByLabelText('Recovery code'), 'abcde-23456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(await within(dialog).findByText('The password is not correct')).toBeInTheDocument();

    await userEvent.clear(within(dialog).getByLabelText('Password'));
    await userEvent.type(within(dialog).getByLabelText('Password'), 'Sunny-Harbor-2291');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.requestsTo('/api/auth/2fa/disable').map((r) => r.body)).toEqual([
      { password: 'wrong', recovery_code: 'abcde23456' },
      { password: 'Sunny-Harbor-2291', recovery_code: 'abcde23456' },
    ]);
    expect(await screen.findByText('Off')).toBeInTheDocument();
  });

  it('offers no Turn off where a role requires it', async () => {
    serve(jsonResponse({ ...on, required: true }));
    renderWithProviders(<TwoFactorSection />);
    expect(await screen.findByText(/One of your roles requires it/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Turn off' })).not.toBeInTheDocument();
  });

  it('says when its state could not be loaded, with Retry', async () => {
    serve([
      jsonResponse({ detail: 'Database unavailable', code: 'internal', request_id: '3' }, 503),
      jsonResponse(off),
    ]);
    renderWithProviders(<TwoFactorSection />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Database unavailable');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('button', { name: 'Set up' })).toBeInTheDocument();
  });
});
