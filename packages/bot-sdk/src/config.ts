import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { requestJson, type HttpOptions } from './http.js';
import type { BotConfig, BotConfigItem, ConfigDomain } from './wire.js';

/**
 * The bot's configuration as operators set it in Lumi (`GET /api/bot/config`,
 * docs/bot-developers/configuration-api.md). The last copy is kept in memory (and, with `file`, on disk
 * across restarts) and served while Lumi cannot be reached; it is refreshed in the background with the
 * ETag, so an unchanged configuration costs a 304, and every new version is announced to `on('change')`.
 */

export interface ConfigOptions {
  /** How often to ask for a newer version while running. Default 30 s; 0 turns background refresh off. */
  refreshSeconds?: number;
  /** Keep the last copy in this JSON file, so a restart while Lumi is down still has a configuration. */
  file?: string;
}

export type ConfigListener = (config: BotConfig, previous: BotConfig | null) => void;

interface StoredCopy {
  etag: string | null;
  config: BotConfig;
  fetched_at: string;
}

export class LumiConfig {
  readonly #http: HttpOptions;
  readonly #options: Required<Pick<ConfigOptions, 'refreshSeconds'>> & ConfigOptions;
  readonly #report: (error: Error) => void;
  readonly #listeners = new Set<ConfigListener>();
  #copy: StoredCopy | null = null;
  #fileRead = false;
  #timer: ReturnType<typeof setInterval> | null = null;
  #refreshing: Promise<BotConfig | null> | null = null;

  constructor(http: HttpOptions, options: ConfigOptions, report: (error: Error) => void) {
    this.#http = http;
    this.#options = { refreshSeconds: 30, ...options };
    this.#report = report;
  }

  /** The last copy, or null before the first one arrived (or was read from `file`). */
  get current(): BotConfig | null {
    return this.#copy?.config ?? null;
  }

  /** The version of the last copy (also Lumi's ETag), or null. */
  get version(): string | null {
    return this.#copy?.config.version ?? null;
  }

  /** When the last copy came from Lumi, or null. */
  get fetchedAt(): Date | null {
    return this.#copy ? new Date(this.#copy.fetched_at) : null;
  }

  /** The active items of a domain, highest priority first; [] when there are none or no copy yet. */
  items(domain: ConfigDomain): BotConfigItem[] {
    return this.current?.domains[domain] ?? [];
  }

  /** One active item by name, or the domain's first (highest priority) item when no name is given. */
  item(domain: ConfigDomain, name?: string): BotConfigItem | undefined {
    const items = this.items(domain);
    return name === undefined ? items[0] : items.find((item) => item.name === name);
  }

  /**
   * Calls `listener` whenever the copy becomes another version (the first copy included, with `previous`
   * null); returns a function that stops it.
   */
  on(event: 'change', listener: ConfigListener): () => void {
    if (event !== 'change') throw new Error(`Unknown event '${String(event)}'`);
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Asks Lumi for the configuration now and resolves with the newest copy there is: Lumi's, or while Lumi
   * cannot be reached the last one (from memory or `file`), or null when there has never been one. Never
   * rejects; a failure goes to the client's `onError`.
   */
  load(): Promise<BotConfig | null> {
    this.#refreshing ??= this.#fetch().finally(() => {
      this.#refreshing = null;
    });
    return this.#refreshing;
  }

  /**
   * Loads now and every `refreshSeconds` in the background (`lumi.start()` calls it; `load()` alone does
   * not). With `refreshSeconds: 0` it does nothing, for a bot without `config:read`.
   */
  start(): void {
    if (this.#timer || this.#options.refreshSeconds <= 0) return;
    void this.load();
    this.#timer = setInterval(() => void this.load(), this.#options.refreshSeconds * 1000);
    this.#timer.unref?.();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  async #fetch(): Promise<BotConfig | null> {
    await this.#readFile();
    try {
      const etag = this.#copy?.etag;
      const answer = await requestJson<BotConfig>(this.#http, 'GET', '/api/bot/config', {
        headers: etag ? { 'if-none-match': etag } : {},
      });
      if (answer.status === 304 && this.#copy) {
        this.#copy = { ...this.#copy, fetched_at: new Date().toISOString() };
        return this.#copy.config;
      }
      const changed = this.#replace({
        etag: answer.headers.get('etag'),
        config: answer.body,
        fetched_at: new Date().toISOString(),
      });
      if (changed) await this.#writeFile();
      return answer.body;
    } catch (error) {
      this.#report(error as Error);
      return this.current;
    }
  }

  /** Keeps `copy` and tells the listeners when its version is another; returns whether it was. */
  #replace(copy: StoredCopy): boolean {
    const previous = this.#copy?.config ?? null;
    this.#copy = copy;
    if (previous?.version === copy.config.version) return false;
    for (const listener of this.#listeners) {
      try {
        listener(copy.config, previous);
      } catch (error) {
        // A listener's mistake must not stop the others or the refresh: it goes to onError.
        this.#report(error as Error);
      }
    }
    return true;
  }

  async #readFile() {
    if (this.#fileRead || !this.#options.file) return;
    this.#fileRead = true;
    try {
      const stored = JSON.parse(await readFile(this.#options.file, 'utf8')) as StoredCopy;
      if (!this.#copy && stored?.config?.domains) this.#replace(stored);
    } catch {
      // No copy yet, or not one we can read: Lumi's answer will write a new one.
    }
  }

  /** Writes the copy to a temporary file and renames it over the old one, so a crash leaves one whole copy. */
  async #writeFile() {
    const file = this.#options.file;
    if (!file || !this.#copy) return;
    try {
      await mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify(this.#copy, null, 2)}\n`);
      await rename(temporary, file);
    } catch (error) {
      this.#report(error as Error);
    }
  }
}
