import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, publicUrlOf } from './config.js';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({})).toEqual({
      PORT: 3000,
      HOST: '0.0.0.0',
      DATA_DIR: './data',
      LUMI_ADMIN_USERNAME: 'admin',
      LUMI_SESSION_HOURS: 12,
      LUMI_AUTH_CACHE_SECONDS: 5,
      LUMI_CONTENT_RETENTION_DAYS: 7,
      LUMI_TRUST_PROXY: false,
      LOG_LEVEL: 'info',
      RETENTION_DAYS: 30,
      LUMI_DELIVERY_RETENTION_DAYS: 30,
      HEARTBEAT_STALE_SECONDS: 120,
      MARKET_DATA_FRESH_SECONDS: 300,
      LUMI_TIMEZONE: 'UTC',
      TELEGRAM_API_BASE_URL: 'https://api.telegram.org',
      LUMI_JOB_LEASE_SECONDS: 15,
      LUMI_DELIVERY_MAX_ATTEMPTS: 5,
      LUMI_DELIVERY_MAX_AGE_MINUTES: 60,
      LUMI_DELIVERY_LEASE_SECONDS: 60,
      LUMI_SCHEDULE_CATCHUP_MINUTES: 60,
      LUMI_HOUSEKEEPING_SECONDS: 600,
      LUMI_SHUTDOWN_DELAY_SECONDS: 0,
      ALERT_EVALUATION_SECONDS: 30,
    });
  });

  it('reads the alert settings, refusing an interval out of range and a public URL that is not http(s)', () => {
    expect(loadConfig({ ALERT_EVALUATION_SECONDS: '1' }).ALERT_EVALUATION_SECONDS).toBe(1);
    expect(loadConfig({ ALERT_EVALUATION_SECONDS: '3600' }).ALERT_EVALUATION_SECONDS).toBe(3600);
    for (const bad of ['0', '3601', '2.5', 'soon']) {
      expect(() => loadConfig({ ALERT_EVALUATION_SECONDS: bad })).toThrow(/ALERT_EVALUATION_SECONDS: /);
    }
    expect(publicUrlOf(loadConfig({ PORT: '8080' }))).toBe('http://localhost:8080');
    expect(publicUrlOf(loadConfig({ LUMI_PUBLIC_URL: 'https://lumi.example.com/' }))).toBe(
      'https://lumi.example.com',
    );
    expect(() => loadConfig({ LUMI_PUBLIC_URL: 'javascript:alert(1)' })).toThrow(/LUMI_PUBLIC_URL: /);
    expect(() => loadConfig({ LUMI_PUBLIC_URL: 'lumi.example.com' })).toThrow(/LUMI_PUBLIC_URL: /);
  });

  it('reads the delivery retention in whole days from 1 to 3,650', () => {
    expect(loadConfig({ LUMI_DELIVERY_RETENTION_DAYS: '7' }).LUMI_DELIVERY_RETENTION_DAYS).toBe(7);
    for (const bad of ['0', '3651', '1.5', 'month']) {
      expect(() => loadConfig({ LUMI_DELIVERY_RETENTION_DAYS: bad })).toThrow(
        /LUMI_DELIVERY_RETENTION_DAYS: /,
      );
    }
  });

  it('refuses cluster timings out of range with the variable named', () => {
    expect(() => loadConfig({ LUMI_JOB_LEASE_SECONDS: '1' })).toThrow(/LUMI_JOB_LEASE_SECONDS: /);
    expect(() => loadConfig({ LUMI_HOUSEKEEPING_SECONDS: '1.5' })).toThrow(
      /LUMI_HOUSEKEEPING_SECONDS: must be a whole/,
    );
    expect(() => loadConfig({ LUMI_SHUTDOWN_DELAY_SECONDS: '-1' })).toThrow(/LUMI_SHUTDOWN_DELAY_SECONDS: /);
    expect(loadConfig({ LUMI_SHUTDOWN_DELAY_SECONDS: '2.5' }).LUMI_SHUTDOWN_DELAY_SECONDS).toBe(2.5);
    expect(() => loadConfig({ LUMI_SCHEDULE_CATCHUP_MINUTES: '-1' })).toThrow(
      /LUMI_SCHEDULE_CATCHUP_MINUTES: /,
    );
    expect(() => loadConfig({ LUMI_SCHEDULE_CATCHUP_MINUTES: '20000' })).toThrow(
      /LUMI_SCHEDULE_CATCHUP_MINUTES: /,
    );
    expect(loadConfig({ LUMI_SCHEDULE_CATCHUP_MINUTES: '0' }).LUMI_SCHEDULE_CATCHUP_MINUTES).toBe(0);
  });

  it('reads the Telegram settings and refuses malformed ones without echoing the token', () => {
    const token = '123456789:AAEexample_token-value';
    expect(
      loadConfig({ TELEGRAM_BOT_TOKEN: token, TELEGRAM_API_BASE_URL: 'http://127.0.0.1:8081' }),
    ).toMatchObject({ TELEGRAM_BOT_TOKEN: token, TELEGRAM_API_BASE_URL: 'http://127.0.0.1:8081' });
    expect(() => loadConfig({ TELEGRAM_BOT_TOKEN: 'not a token secret-part' })).toThrow(
      /^Invalid configuration:\n {2}TELEGRAM_BOT_TOKEN: must be a bot token/,
    );
    expect(() => loadConfig({ TELEGRAM_BOT_TOKEN: 'not a token secret-part' })).not.toThrow(/secret-part/);
    expect(() => loadConfig({ TELEGRAM_API_BASE_URL: 'ftp://x' })).toThrow(/TELEGRAM_API_BASE_URL: /);
  });

  it('reads the variables it is given', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://lumi@db/lumi',
      LUMI_SECRET: 's'.repeat(32),
      LUMI_ADMIN_USERNAME: 'root.admin',
      LUMI_ADMIN_PASSWORD: 'Chosen-password-1',
      LUMI_TRUST_PROXY: 'true',
      LUMI_AUTH_CACHE_SECONDS: '0',
      LOG_LEVEL: 'warn',
      RETENTION_DAYS: '7',
      HEARTBEAT_STALE_SECONDS: '300',
      MARKET_DATA_FRESH_SECONDS: '60',
      LUMI_TIMEZONE: 'Asia/Kolkata',
    });
    expect(config).toMatchObject({
      PORT: 8080,
      DATABASE_URL: 'postgres://lumi@db/lumi',
      LUMI_ADMIN_USERNAME: 'root.admin',
      LUMI_ADMIN_PASSWORD: 'Chosen-password-1',
      LUMI_TRUST_PROXY: 1,
      LUMI_AUTH_CACHE_SECONDS: 0,
      LOG_LEVEL: 'warn',
      RETENTION_DAYS: 7,
      HEARTBEAT_STALE_SECONDS: 300,
      MARKET_DATA_FRESH_SECONDS: 60,
      LUMI_TIMEZONE: 'Asia/Kolkata',
    });
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '', LUMI_SECRET: '' })).toMatchObject({ PORT: 3000 });
    expect(loadConfig({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://db/lumi'],
    ['LUMI_SECRET', 'too-short'],
    ['LUMI_ADMIN_USERNAME', 'a b'],
    ['LUMI_ADMIN_PASSWORD', 'short'],
    ['LUMI_TRUST_PROXY', 'yes'],
    ['LUMI_TRUST_PROXY', '10.0.0.0/99'],
    ['LUMI_AUTH_CACHE_SECONDS', '61'],
    ['LUMI_AUTH_CACHE_SECONDS', '2.5'],
    ['LOG_LEVEL', 'loud'],
    ['RETENTION_DAYS', '0'],
    ['RETENTION_DAYS', '401'],
    ['HEARTBEAT_STALE_SECONDS', 'soon'],
    ['MARKET_DATA_FRESH_SECONDS', '0'],
    ['LUMI_TIMEZONE', 'Mars/Olympus_Mons'],
  ])('refuses %s=%j with a message naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}: `));
  });
});
