import type {
  LoginResponse,
  TwoFactorChallengeResponse,
  TwoFactorEnableResponse,
  TwoFactorSetupResponse,
} from '@lumi/contract';
import type { FastifyInstance } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import { cookieValue, REFRESH_COOKIE } from './helper.js';

/** The code an authenticator app shows for `secret` at `at` (ms), computed as RFC 6238 says. */
export function codeAt(secret: string, at: number): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at });
}

/** The first millisecond of the 30-second step holding `at`. */
export function stepStart(at: number): number {
  return Math.floor(at / 30_000) * 30_000;
}

/** Sets up and enables two-factor sign-in for a signed-in user; answers the secret and recovery codes. */
export async function enrol(app: FastifyInstance, auth: Record<string, string>, at: number) {
  const setup = await app.inject({ method: 'POST', url: '/api/auth/2fa/setup', headers: auth });
  expect(setup.statusCode, setup.body).toBe(200);
  const { secret } = setup.json<TwoFactorSetupResponse>();
  const enable = await app.inject({
    method: 'POST',
    url: '/api/auth/2fa/enable',
    headers: auth,
    payload: { code: codeAt(secret, at) },
  });
  expect(enable.statusCode, enable.body).toBe(200);
  return { secret, recoveryCodes: enable.json<TwoFactorEnableResponse>().recovery_codes };
}

/** The password step of a user with two-factor sign-in: answers the challenge. */
export async function passwordStep(
  app: FastifyInstance,
  username: string,
  password: string,
  remoteAddress?: string,
) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username, password },
    remoteAddress,
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<TwoFactorChallengeResponse>();
  expect(body).toEqual({ two_factor_required: true, challenge: expect.any(String), expires_in: 300 });
  expect(cookieValue(res, REFRESH_COOKIE)).toBeUndefined();
  return body.challenge;
}

export function verify(
  app: FastifyInstance,
  payload: { challenge: string; code?: string; recovery_code?: string },
  remoteAddress?: string,
) {
  return app.inject({ method: 'POST', url: '/api/auth/2fa/verify', payload, remoteAddress });
}

export function bearer(res: { json<T>(): T }) {
  return { authorization: `Bearer ${res.json<LoginResponse>().access_token}` };
}
