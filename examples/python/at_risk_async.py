"""The first script, with the asyncio client: AT_RISK projects and their risk counts fetched concurrently, then a
new risk.

Run it against `npm start`'s server (the NYC demo portfolio is imported on first start):

    pip install ./sdk-python
    export MERIDIAN_API_KEY=mk_live_...            # the key the server was started with
    export MERIDIAN_BASE_URL=http://localhost:8080/v1
    python examples/python/at_risk_async.py
"""

from __future__ import annotations

import asyncio

import meridian
from meridian.models import Project


async def open_risks(client: meridian.AsyncMeridian, project: Project) -> tuple[Project, int]:
    page = await client.risks.list(project_id=project.id, status=["OPEN"], limit=1)
    return project, page.pagination.total


async def main() -> None:
    async with meridian.AsyncMeridian() as client:  # reads MERIDIAN_API_KEY and MERIDIAN_BASE_URL
        at_risk = [p async for p in client.projects.list(status=["AT_RISK"])]
        print(f"{len(at_risk)} projects are AT_RISK")

        # One request per project, at most 10 in flight (the connection pool's default is larger).
        limit = asyncio.Semaphore(10)

        async def counted(project: Project) -> tuple[Project, int]:
            async with limit:
                return await open_risks(client, project)

        counts = await asyncio.gather(*(counted(p) for p in at_risk[:20]))
        for project, count in sorted(counts, key=lambda pc: -pc[1])[:5]:
            print(f"  {count:3} open risks  {project.name[:70]}")

        if not at_risk:
            return
        try:
            answer = await client.risks.with_raw_response.create(
                title="Crane availability", project_id=at_risk[0].id, likelihood=3, impact=4, timeout=10.0
            )
        except meridian.PermissionDeniedError as error:
            print(f"This key cannot write ({error.code}); use a key with the `write` scope.")
            return
        risk = answer.data
        print(f"Created risk {risk.id}: score {risk.score}, severity {risk.severity.value} (request {answer.request_id})")


if __name__ == "__main__":
    asyncio.run(main())
