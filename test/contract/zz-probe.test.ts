import { client } from '../support/client.js';
import { startTestServer } from '../support/server.js';
describe('probe', () => {
  it('probes', async () => {
    const server = await startTestServer();
    const t = await server.createTenant();
    const api = client(server.baseUrl, t.keys.write);
    const show = (l: string, r: any) => console.log(l, r.status, r.headers.get('etag'), JSON.stringify(r.body)?.slice(0, 400));
    const p = await api.post(null, '/projects', { body: { name: 'x', startDate: '2026-13-01', endDate: '2026-13-05', forecastEndDate: '2026-19-39' } });
    show('baddate', p);
    show('detail', await api.get(null, `/projects/${p.body.id}`));
    const q = await api.post(null, '/projects', { body: { name: 'x', startDate: '2026-01-01', endDate: '2026-03-01', code: 'A' } });
    show('dupcode-ws', await api.post(null, '/projects', { body: { name: 'x', startDate: '2026-01-01', endDate: '2026-03-01', code: 'a' } }));
    const r = await api.post(null, '/risks', { body: { title: 't', projectId: q.body.id, likelihood: 2, impact: 2 } });
    show('risk', r);
    show('risk-ifmatch', await api.patch(null, `/risks/${r.body.id}`, { body: { title: 'u' }, headers: { 'If-Match': '"42"' } }));
    show('risk-proj', await api.patch(null, `/risks/${r.body.id}`, { body: { projectId: q.body.id } }));
    show('bigint', await api.post(null, '/projects', { body: { name: 'x', startDate: '2026-01-01', endDate: '2026-03-01', budget: 1e300 } }));
    show('progress-float', await api.post(null, '/projects', { body: { name: 'x', startDate: '2026-01-01', endDate: '2026-03-01', progress: 2.5 } }));
    show('limit-float', await api.get(null, '/projects', { query: { limit: 2.5 } }));
    show('bogus-reqid', await api.get(null, '/me', { headers: { 'x-request-id': 'bad id with spaces' } }));
    await server.close();
  });
});
