/**
 * The webhook target policy: which addresses are refused (ipaddr.js classification) and which events an endpoint
 * subscribes to (the delivery settings are in test/unit/config.test.ts).
 */
import { expect } from 'chai';
import { subscribes } from '../../server/services/webhooks/index.js';
import { checkLiteralTarget, refusedAddress } from '../../server/services/webhooks/targets.js';

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
    // IPv4-compatible IPv6 (::/96), as the URL parser normalises `[::127.0.0.1]`: ipaddr.js says unicast.
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

  it('checks IPv4-compatible IPv6 literals and credentials at delivery time', () => {
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
