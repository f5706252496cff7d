/**
 * The webhook target policy: which addresses are refused (ipaddr.js classification), and the delivery settings.
 */
import { expect } from 'chai';
import { DEFAULT_RETRY_SCHEDULE_MS, loadConfig } from '../../server/config.js';
import { checkLiteralTarget, refusedAddress, subscribes } from '../../server/services/webhooks/index.js';

describe('webhook target addresses', () => {
  const refused: [string, string][] = [
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.10', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['fd00:ec2::254', 'uniqueLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['64:ff9b::a00:1', 'rfc6052'],
    ['2002:7f00:1::', '6to4'],
    // IPv4-compatible IPv6 (::/96), as the URL parser normalises `[::127.0.0.1]`: ipaddr.js says unicast (issue 13).
    ['::7f00:1', 'ipv4Compatible'],
    ['::a9fe:a9fe', 'ipv4Compatible'],
    ['::a00:1', 'ipv4Compatible'],
    ['::808:808', 'ipv4Compatible'],
    ['::2', 'ipv4Compatible'],
    ['::ffff:0:7f00:1', 'rfc6145'],
    ['64:ff9b:1::a00:1', 'rfc6052'],
  ];
  for (const [address, range] of refused) {
    it(`refuses ${address} (${range})`, () => expect(refusedAddress(address)).to.equal(range));
  }
  for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
    it(`accepts ${address}`, () => expect(refusedAddress(address)).to.equal(null));
  }
  it('refuses what is not an address', () =>
    expect(refusedAddress('example.com')).to.equal('not an IP address'));

  it('checks IP-literal URLs at delivery time unless private targets are allowed', () => {
    expect(() => checkLiteralTarget(new URL('https://10.0.0.1/x'), false)).to.throw(/public addresses only/);
    expect(() => checkLiteralTarget(new URL('https://[::1]/x'), false)).to.throw(/public addresses only/);
    expect(() => checkLiteralTarget(new URL('http://93.184.215.14/x'), false)).to.throw(/http/);
    expect(() => checkLiteralTarget(new URL('https://93.184.215.14/x'), false)).to.not.throw();
    expect(() => checkLiteralTarget(new URL('https://hooks.example.com/x'), false)).to.not.throw();
    expect(() => checkLiteralTarget(new URL('http://127.0.0.1:9/x'), true)).to.not.throw();
  });

  it('checks IPv4-compatible IPv6 literals and credentials at delivery time (issue 13)', () => {
    for (const url of ['https://[::127.0.0.1]/x', 'https://[::169.254.169.254]/x', 'https://[::10.0.0.1]/x'])
      expect(() => checkLiteralTarget(new URL(url), false), url).to.throw(/public addresses only/);
    expect(() => checkLiteralTarget(new URL('https://user:pass@93.184.215.14/x'), false)).to.throw(
      /credentials/,
    );
    // Credentials are refused even where private targets are allowed.
    expect(() => checkLiteralTarget(new URL('http://user:pass@127.0.0.1:9/x'), true)).to.throw(/credentials/);
  });

  it('matches event filters: the kind itself or *', () => {
    expect(subscribes(['risk.created'], 'risk.created')).to.equal(true);
    expect(subscribes(['risk.created'], 'milestone.missed')).to.equal(false);
    expect(subscribes(['*'], 'agent.execution_completed')).to.equal(true);
  });
});

describe('delivery settings', () => {
  it('allows private targets only when MERIDIAN_WEBHOOK_ALLOW_PRIVATE=true, in any mode; runs the worker in process except in test', () => {
    expect(loadConfig({})).to.include({ webhookAllowPrivate: false, worker: true });
    const key = Buffer.alloc(32, 1).toString('base64');
    expect(loadConfig({ NODE_ENV: 'production', MERIDIAN_SECRET_KEY: key })).to.include({
      webhookAllowPrivate: false,
      worker: true,
    });
    expect(loadConfig({ NODE_ENV: 'development' })).to.include({ webhookAllowPrivate: false, worker: true });
    expect(loadConfig({ NODE_ENV: 'test' })).to.include({ webhookAllowPrivate: false, worker: false });
    expect(loadConfig({ NODE_ENV: 'development', MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'true' })).to.include({
      webhookAllowPrivate: true,
    });
    const explicit = loadConfig({
      NODE_ENV: 'production',
      MERIDIAN_SECRET_KEY: key,
      MERIDIAN_WEBHOOK_ALLOW_PRIVATE: 'true',
      MERIDIAN_WORKER: 'false',
    });
    expect(explicit).to.include({ webhookAllowPrivate: true, worker: false });
  });

  it('reads the retry schedule in ms (docs/design.md default) and refuses malformed ones', () => {
    expect(loadConfig({}).webhookRetrySchedule).to.deep.equal(DEFAULT_RETRY_SCHEDULE_MS);
    expect(DEFAULT_RETRY_SCHEDULE_MS).to.deep.equal([
      0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(loadConfig({ MERIDIAN_WEBHOOK_RETRY_SCHEDULE: '0, 10,20' }).webhookRetrySchedule).to.deep.equal([
      0, 10, 20,
    ]);
    expect(() => loadConfig({ MERIDIAN_WEBHOOK_RETRY_SCHEDULE: '0,x' })).to.throw(/RETRY_SCHEDULE/);
    expect(() => loadConfig({ MERIDIAN_WEBHOOK_RETRY_SCHEDULE: '0,,5' })).to.throw(/RETRY_SCHEDULE/);
    expect(() => loadConfig({ MERIDIAN_WEBHOOK_RETRY_SCHEDULE: '100,5' })).to.throw(/start with 0/);
    expect(loadConfig({}).webhookTimeoutMs).to.equal(15_000);
  });
});
