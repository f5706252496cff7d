/**
 * The target-address policy of the Webhooks tag with private targets refused (MERIDIAN_WEBHOOK_ALLOW_PRIVATE=false):
 * plain http, loopback, private, link-local and metadata addresses, names resolving to them, and credentials.
 */
import { expect } from 'chai';
import { expectProblem, fieldErrors } from '../support/assertions.js';
import { contractSuite } from '../support/suite.js';

describe('Webhooks with private targets refused (MERIDIAN_WEBHOOK_ALLOW_PRIVATE=false)', () => {
  const ctx = contractSuite({ env: { MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'false' } });

  const refused = [
    'http://127.0.0.1:9/hook', // plain http
    'https://127.0.0.1/hook', // loopback
    'https://127.1.2.3/hook',
    'https://localhost/hook', // a name that resolves to loopback
    'https://[::1]/hook',
    'https://10.1.2.3/hook', // private
    'https://172.16.0.1/hook',
    'https://192.168.1.20/hook',
    'https://169.254.169.254/latest/meta-data', // link-local: cloud metadata
    'https://[fd00:ec2::254]/', // unique-local: AWS metadata over IPv6
    'https://[fe80::1]/hook',
    'https://100.64.0.1/hook', // CGNAT
    'https://0.0.0.0/hook',
    'https://[::ffff:127.0.0.1]/hook', // IPv4-mapped loopback
    'https://[::ffff:a9fe:a9fe]/hook', // IPv4-mapped metadata
    'https://0x7f.0.0.1/hook', // loopback in hex, normalised by the URL parser
    'https://2130706433/hook', // loopback as one integer
    'https://no-such-host.invalid/hook', // does not resolve
    // IPv4-compatible IPv6 (::/96), which ipaddr.js classes as unicast: refused whatever it embeds.
    'https://[::127.0.0.1]/hook',
    'https://[::169.254.169.254]/latest/meta-data',
    'https://[::10.0.0.1]/hook',
    'https://[::a9fe:a9fe]/hook',
    'https://[::8.8.8.8]/hook',
    'https://[0:0:0:0:0:0:7f00:1]/hook',
    // IPv4-mapped and the other forms that embed an IPv4 address.
    'https://[::ffff:10.0.0.1]/hook',
    'https://[::ffff:0:127.0.0.1]/hook', // IPv4-translated (SIIT)
    'https://[64:ff9b::127.0.0.1]/hook', // NAT64
    'https://[64:ff9b:1::a9fe:a9fe]/hook', // local-use NAT64
    'https://[2002:7f00:1::]/hook', // 6to4 of 127.0.0.1
    'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook', // Teredo
    'https://user:pass@93.184.215.14/hook', // credentials, on a public address
  ];

  for (const url of refused) {
    it(`refuses ${url} with 422 naming /url`, async () => {
      const res = await ctx.admin.post('createWebhook', '/webhooks', { body: { url, events: ['*'] } });
      const problem = expectProblem(res, 422, 'validation_failed');
      expect(fieldErrors(problem)).to.deep.equal(['body:/url']);
    });
  }

  it('accepts a public https address, and refuses a PATCH to a private one', async () => {
    const res = await ctx.admin.post('createWebhook', '/webhooks', {
      body: { url: 'https://93.184.215.14/hook', events: ['*'] },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const patched = await ctx.admin.patch('updateWebhook', `/webhooks/${res.body.id}`, {
      body: { url: 'https://192.168.0.1/hook' },
    });
    expectProblem(patched, 422, 'validation_failed');
    const got = await ctx.admin.get('getWebhook', `/webhooks/${res.body.id}`);
    expect(got.body).to.include({ url: 'https://93.184.215.14/hook', version: 1 });
  });
});
