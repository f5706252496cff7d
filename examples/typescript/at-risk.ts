/**
 * The first program most Meridian users write: list the AT_RISK projects of the NYC portfolio, page through every
 * risk, then record a new risk and print the severity Meridian derived for it.
 *
 *   npm start                                   # prints the demo tenant's admin key on first run
 *   npm run build -w @meridian/sdk              # once: builds the SDK package that this file imports
 *   MERIDIAN_API_KEY=mk_live_… npx tsx examples/typescript/at-risk.ts
 *
 * Reads MERIDIAN_API_KEY and MERIDIAN_BASE_URL (default http://localhost:8080/v1).
 */
import { APIError, Meridian } from '@meridian/sdk';

const client = new Meridian();

try {
  // 1. AT_RISK projects of the portfolio (the key's tenant), every page.
  const atRisk = [];
  for await (const project of client.projects.list({ status: ['AT_RISK'], limit: 100 })) {
    atRisk.push(project);
  }
  console.log(`${atRisk.length} projects are AT_RISK`);
  for (const project of atRisk.slice(0, 5)) {
    const done = project.progress === null ? 'progress not reported' : `${project.progress}% done`;
    console.log(`  ${project.code ?? '-'}  ${project.name}  (ends ${project.endDate}, ${done})`);
  }

  // 2. Every risk of the portfolio, counted by severity.
  const bySeverity: Record<string, number> = {};
  for await (const risk of client.risks.list({ limit: 100 })) {
    bySeverity[risk.severity] = (bySeverity[risk.severity] ?? 0) + 1;
  }
  console.log('risks by severity:', bySeverity);

  // 3. A new risk on the first AT_RISK project: Meridian derives severity from likelihood × impact.
  const target = atRisk[0];
  if (target) {
    const { data: risk, requestId } = await client.risks
      .create({
        title: 'Utility conflicts delay excavation',
        projectId: target.id,
        likelihood: 4,
        impact: 3,
        mitigation: 'Survey utilities before mobilising the excavation crew.',
      })
      .withResponse();
    console.log(`created risk ${risk.id} on "${target.name}": score ${risk.score}, severity ${risk.severity}`);
    console.log(`(request ${requestId})`);
  }
} catch (error) {
  if (error instanceof APIError) {
    console.error(`Meridian answered ${error.status} ${error.code}: ${error.detail ?? error.title}`);
    console.error(`request id: ${error.requestId}`);
    process.exitCode = 1;
  } else {
    throw error;
  }
}
