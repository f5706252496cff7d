/**
 * The event kinds an endpoint can subscribe to (spec `WebhookEventType`), each with what it reports.
 */
import type { WebhookEventType } from '@meridian/sdk';

export const EVENT_KINDS: { kind: WebhookEventType; about: string }[] = [
  { kind: 'project.status_changed', about: 'A project moved between on track, at risk, off track or done.' },
  { kind: 'risk.created', about: 'A risk was recorded on a project.' },
  { kind: 'risk.severity_escalated', about: 'A risk’s severity (likelihood × impact) went up a band.' },
  { kind: 'milestone.missed', about: 'A milestone passed its due date unfinished.' },
  { kind: 'agent.execution_completed', about: 'An agent execution finished (successfully or not).' },
  { kind: 'budget.overrun_detected', about: 'A project’s actual cost passed its budget.' },
];
