/**
 * The citation builder shared by the agents and Ask (server/services/agents/citations.ts): numbering by first use,
 * dedupe by record and field, urls, groups, and marker parsing.
 */
import { expect } from 'chai';
import {
  CitationBuilder,
  markers,
  markersIn,
  recordUrl,
  statusReportUrl,
  unresolvedMarkers,
} from '../../server/services/agents/citations.js';

const P1 = '0195113c-8a2e-7f41-b6d3-2c9e4a7b1f10';
const P2 = '0195113c-8a2e-7f41-b6d3-2c9e4a7b1f11';
const R1 = '01951160-7e9f-7085-94b6-2c1e5f7a9b54';

describe('citations', () => {
  it('numbers citations from 1 in order of first use and dedupes by record and field', () => {
    const b = new CitationBuilder();
    expect(b.cite({ type: 'project', id: P1, title: 'A', excerpt: 'budget 1', field: 'budget' })).to.equal(
      '[1]',
    );
    expect(b.cite({ type: 'risk', id: R1, title: 'R', excerpt: 'score 16' })).to.equal('[2]');
    // Same record and field: same citation, whatever the excerpt says the second time.
    expect(b.cite({ type: 'project', id: P1, title: 'A', excerpt: 'other', field: 'budget' })).to.equal(
      '[1]',
    );
    // Same record, another field: another citation.
    expect(b.cite({ type: 'project', id: P1, title: 'A', excerpt: 'fc 2', field: 'forecastCost' })).to.equal(
      '[3]',
    );
    const all = b.all();
    expect(all.map((c) => c.index)).to.deep.equal([1, 2, 3]);
    expect(all[0]).to.deep.equal({
      index: 1,
      type: 'project',
      id: P1,
      title: 'A',
      url: `/v1/projects/${P1}`,
      excerpt: 'budget 1',
      field: 'budget',
    });
    expect(all[1]).to.not.have.property('field');
    expect(all[1]?.url).to.equal(`/v1/risks/${R1}`);
    expect(b.size).to.equal(3);
    expect(b.byIndex(3)?.field).to.equal('forecastCost');
  });

  it('groups keep the citations one finding uses, by index, numbered by the builder', () => {
    const b = new CitationBuilder();
    b.cite({ type: 'project', id: P1, title: 'A', excerpt: 'x' });
    const g = b.group();
    expect(g.cite({ type: 'project', id: P2, title: 'B', excerpt: 'y' })).to.equal('[2]');
    expect(g.cite({ type: 'project', id: P1, title: 'A', excerpt: 'x' })).to.equal('[1]');
    expect(g.cite({ type: 'project', id: P2, title: 'B', excerpt: 'y' })).to.equal('[2]');
    expect(g.list().map((c) => c.index)).to.deep.equal([1, 2]);
  });

  it('gives every type its /v1 path; status reports need their own', () => {
    expect(recordUrl('milestone', P1)).to.equal(`/v1/milestones/${P1}`);
    expect(recordUrl('allocation', P1)).to.equal(`/v1/allocations/${P1}`);
    expect(() => recordUrl('status_report', P1)).to.throw(/explicit url/);
    const b = new CitationBuilder();
    b.cite({ type: 'status_report', id: P2, title: 'Report', excerpt: 'e', url: statusReportUrl(P2) });
    expect(b.all()[0]?.url).to.equal(`/v1/status-reports/${P2}`);
  });

  it('renders and parses markers, and finds the ones that resolve to nothing', () => {
    expect(markers([2, 5])).to.equal('[2][5]');
    expect(markers([])).to.equal('');
    expect(markersIn('a [1] b [12][3] c [x]')).to.deep.equal([1, 12, 3]);
    expect(unresolvedMarkers('a [1] b [4]', [{ index: 1 }, { index: 2 }])).to.deep.equal([4]);
  });
});
