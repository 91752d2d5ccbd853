import { DELIVERY_LIMITS } from '@lumi/contract';
import { z } from 'zod';
import { parseTrustProxy, TRUST_PROXY_HELP } from './lib/trust-proxy.js';
import { JOB_LEASE_SECONDS_DEFAULT } from './modules/cluster/job-scheduler.js';
import {
  ALERT_EVALUATION_SECONDS_DEFAULT,
  HOUSEKEEPING_SECONDS_DEFAULT,
  SCHEDULE_CATCHUP_MINUTES_DEFAULT,
} from './jobs.js';
import { SENDER_DEFAULTS } from './modules/messaging/deliveries/sender-settings.js';
import { AUTH_CACHE_SECONDS_DEFAULT } from './modules/auth/principal-cache.js';
import { TELEMETRY_DEFAULTS } from './modules/telemetry-store/telemetry.settings.js';

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The only place that reads process.env. Every variable is documented in docs/operators/configuration.md. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql:// (leave it unset for SQLite)')
    .optional(),
  LUMI_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  LUMI_ADMIN_USERNAME: z
    .string()
    .regex(/^[A-Za-z0-9._-]{3,64}$/, 'must be 3 to 64 letters, digits, dots, dashes or underscores')
    .default('admin'),
  LUMI_ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').max(128).optional(),
  LUMI_SESSION_HOURS: z.coerce
    .number()
    .min(0.1)
    .max(24 * 30)
    .default(12),
  LUMI_AUTH_CACHE_SECONDS: z.coerce
    .number()
    .int('must be a whole number of seconds')
    .min(0)
    .max(60)
    .default(AUTH_CACHE_SECONDS_DEFAULT),
  LUMI_TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, ctx) => {
      const trust = parseTrustProxy(value);
      if (trust === null) ctx.addIssue({ code: 'custom', message: TRUST_PROXY_HELP });
      return trust ?? false;
    }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RETENTION_DAYS: z.coerce.number().int().min(1).max(400).default(TELEMETRY_DEFAULTS.retentionDays),
  LUMI_CONTENT_RETENTION_DAYS: z.coerce
    .number()
    .int('must be a whole number of days')
    .min(1)
    .max(400)
    .default(TELEMETRY_DEFAULTS.contentRetentionDays),
  LUMI_DELIVERY_RETENTION_DAYS: z.coerce
    .number()
    .int('must be a whole number of days')
    .min(DELIVERY_LIMITS.retentionDaysMin)
    .max(DELIVERY_LIMITS.retentionDaysMax)
    .default(DELIVERY_LIMITS.retentionDaysDefault),
  HEARTBEAT_STALE_SECONDS: z.coerce
    .number()
    .int()
    .min(10)
    .max(24 * 3600)
    .default(TELEMETRY_DEFAULTS.heartbeatStaleSeconds),
  MARKET_DATA_FRESH_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 3600)
    .default(TELEMETRY_DEFAULTS.marketDataFreshSeconds),
  LUMI_TIMEZONE: z
    .string()
    .refine(isTimeZone, 'must be an IANA time zone such as UTC or Europe/Berlin')
    .default(TELEMETRY_DEFAULTS.timezone),
  TELEGRAM_BOT_TOKEN: z
    .string()
    .regex(/^\d+:[A-Za-z0-9_-]+$/, 'must be a bot token from @BotFather, such as 123456789:AAE…')
    .optional(),
  TELEGRAM_API_BASE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .default('https://api.telegram.org'),
  LUMI_JOB_LEASE_SECONDS: z.coerce
    .number()
    .int('must be a whole number of seconds')
    .min(2)
    .max(600)
    .default(JOB_LEASE_SECONDS_DEFAULT),
  LUMI_HOUSEKEEPING_SECONDS: z.coerce
    .number()
    .int('must be a whole number of seconds')
    .min(1)
    .max(24 * 3600)
    .default(HOUSEKEEPING_SECONDS_DEFAULT),
  LUMI_DELIVERY_MAX_ATTEMPTS: z.coerce
    .number()
    .int('must be a whole number')
    .min(1)
    .max(50)
    .default(SENDER_DEFAULTS.maxAttempts),
  LUMI_DELIVERY_MAX_AGE_MINUTES: z.coerce
    .number()
    .min(1)
    .max(7 * 24 * 60)
    .default(SENDER_DEFAULTS.maxAgeMs / 60_000),
  LUMI_DELIVERY_LEASE_SECONDS: z.coerce
    .number()
    .int('must be a whole number of seconds')
    .min(2)
    .max(3600)
    .default(SENDER_DEFAULTS.leaseMs / 1000),
  LUMI_SCHEDULE_CATCHUP_MINUTES: z.coerce
    .number()
    .min(0)
    .max(7 * 24 * 60)
    .default(SCHEDULE_CATCHUP_MINUTES_DEFAULT),
  LUMI_SHUTDOWN_DELAY_SECONDS: z.coerce.number().min(0).max(300).default(0),
  ALERT_EVALUATION_SECONDS: z.coerce
    .number()
    .int('must be a whole number of seconds')
    .min(1)
    .max(3600)
    .default(ALERT_EVALUATION_SECONDS_DEFAULT),
  /** Where the console is reached, for the links in alerts; http://localhost:${PORT} when left out. */
  LUMI_PUBLIC_URL: z
    .url({
      protocol: /^https?$/,
      error: 'must be an http:// or https:// URL, such as https://lumi.example.com',
    })
    .optional(),
});

export type Config = z.infer<typeof envSchema>;

/** LUMI_PUBLIC_URL without a trailing slash, or the local address of this server. */
export function publicUrlOf(config: Pick<Config, 'LUMI_PUBLIC_URL' | 'PORT'>): string {
  return (config.LUMI_PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}
