// The benchmark's yardstick: a bare Fastify app with one route returning a constant JSON body, on
// 127.0.0.1:$PORT. What Fastify and Node alone manage on this machine, without auth, database or plugins.
// A second yardstick, GET /same/:name, returns the JSON text last PUT there under that name: with a
// dashboard's answer, it shows what sending that many bytes costs by itself. POST /same/:name returns it too,
// after parsing the JSON body sent (part `allowance`: a check's request and answer, without the decision).
import Fastify from 'fastify';

const BODY = { status: 'ok', service: 'bare', items: [1, 2, 3] };

const app = Fastify({ logger: false });
app.get('/bare', async () => BODY);
app.get('/api/health', async () => ({ status: 'ok' }));
const same = new Map();
app.put('/same/:name', async (request) => {
  const json = JSON.stringify(request.body);
  same.set(request.params.name, json);
  return { bytes: Buffer.byteLength(json) };
});
const sendSame = (request, reply) =>
  reply.type('application/json; charset=utf-8').send(same.get(request.params.name) ?? '{}');
app.get('/same/:name', sendSame);
app.post('/same/:name', sendSame);

const stop = () => app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
