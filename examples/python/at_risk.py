"""The first script a Meridian user writes: AT_RISK projects of the NYC portfolio, every risk, and a new risk.

Run it against `npm start`'s server (the NYC demo portfolio is imported on first start):

    pip install ./sdk-python
    export MERIDIAN_API_KEY=mk_live_...            # the key the server was started with
    export MERIDIAN_BASE_URL=http://localhost:8080/v1
    python examples/python/at_risk.py
"""

from __future__ import annotations

import meridian
from meridian.models import ProjectStatus


def main() -> None:
    client = meridian.Meridian()  # reads MERIDIAN_API_KEY and MERIDIAN_BASE_URL (default http://localhost:8080/v1)

    tenant = client.tenant.retrieve()
    print(f"Portfolio: {tenant.name} ({tenant.currency})")

    # 1. AT_RISK projects: iterating a list walks every page of it.
    at_risk = list(client.projects.list(status=[ProjectStatus.AT_RISK]))
    print(f"\n{len(at_risk)} projects are AT_RISK:")
    for project in at_risk[:10]:
        budget = f"{project.budget:,.0f}" if project.budget is not None else "n/a"
        print(f"  {project.code or '-':10} {project.name[:60]:60} budget {budget}")
    if len(at_risk) > 10:
        print(f"  … and {len(at_risk) - 10} more")

    # 2. Every risk of the tenant, page after page (50 a page).
    risks = list(client.risks.list(limit=50))
    print(f"\nThe tenant has {len(risks)} risks.")

    # 3. A new risk on the first AT_RISK project; severity is derived from likelihood × impact.
    if not at_risk:
        print("No AT_RISK project to attach a risk to.")
        return
    project = at_risk[0]
    try:
        risk = client.risks.create(
            title="Contractor may miss the paving window",
            project_id=project.id,
            likelihood=4,
            impact=4,
            mitigation="Book a second contractor for the same window.",
        )
    except meridian.PermissionDeniedError as error:
        print(f"This key cannot write ({error.code}); use a key with the `write` scope.")
        return
    print(f"\nCreated risk {risk.id} on {project.name!r}: score {risk.score}, severity {risk.severity.value}")


if __name__ == "__main__":
    main()
