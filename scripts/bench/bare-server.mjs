// The benchmark's yardstick: a bare Fastify app with one route returning a constant JSON body, on
// 127.0.0.1:$PORT. What Fastify and Node alone manage on this machine, without auth, database or plugins.
// A second yardstick, GET /same, returns whatever JSON text was last PUT there: with a dashboard's answer,
// it shows what sending that many bytes costs by itself.
import Fastify from 'fastify';

const BODY = { status: 'ok', service: 'bare', items: [1, 2, 3] };

const app = Fastify({ logger: false });
app.get('/bare', async () => BODY);
app.get('/api/health', async () => ({ status: 'ok' }));
let same = '{}';
app.put('/same', async (request) => {
  same = JSON.stringify(request.body);
  return { bytes: Buffer.byteLength(same) };
});
app.get('/same', (_request, reply) => reply.type('application/json; charset=utf-8').send(same));

const stop = () => app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
