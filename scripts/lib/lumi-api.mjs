// A small client of the Lumi Admin HTTP API for the demo bot and the benchmark: only public endpoints,
// exactly as a bot or an operator's script would call them.

export class ApiError extends Error {
  constructor(method, path, status, body) {
    const detail = body && typeof body === 'object' && 'detail' in body ? body.detail : String(body ?? '');
    super(`${method} ${path} answered ${status}: ${detail}`);
    this.status = status;
    this.body = body;
  }
}

export class LumiApi {
  /** @param {string} baseUrl e.g. http://127.0.0.1:3000 */
  constructor(baseUrl) {
    this.baseUrl = baseUrl.replace(/\/$/, '');
  }

  /** Sends JSON, returns the parsed answer; throws ApiError on a status outside 2xx. */
  async request(method, path, { token, body, signal } = {}) {
    const headers = { accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      signal,
    });
    const text = await response.text();
    let parsed = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON (a proxy's error page, say): keep the text for the message.
    }
    if (!response.ok) throw new ApiError(method, path, response.status, parsed);
    return parsed;
  }

  /** Signs in as a script does (refresh token in the body); returns the access token. */
  async signIn(username, password) {
    const answer = await this.request('POST', '/api/auth/login', {
      body: { username, password, refresh_token_in_body: true },
    });
    return answer.access_token;
  }

  /** Creates an API key (admin:keys:write); the answer's `key` is shown this once. */
  createApiKey(token, name, scopes) {
    return this.request('POST', '/api/admin/api-keys', { token, body: { name, scopes } });
  }

  /** POST /api/ingest/events with an API key; `events` may be an array or an already serialised body. */
  ingest(apiKey, events, signal) {
    const body = typeof events === 'string' ? events : { events };
    return this.request('POST', '/api/ingest/events', { token: apiKey, body, signal });
  }

  /** POST /api/v1/messaging/deliveries: queues a template with data (messages:send or templates:send). */
  queueDelivery(token, delivery, signal) {
    return this.request('POST', '/api/v1/messaging/deliveries', { token, body: delivery, signal });
  }

  createBudget(token, provider, budget) {
    return this.request('POST', `/api/config/token-budgets/${encodeURIComponent(provider)}`, {
      token,
      body: budget,
    });
  }

  setModelPrice(token, model, price) {
    return this.request('PUT', `/api/config/model-prices/${encodeURIComponent(model)}`, {
      token,
      body: price,
    });
  }
}
