/**
 * What `PATCH /tenant` accepts as a tenant's currency and time zone (docs/design.md, "Auth, tenants, users, keys"):
 * codes and zones this process's ICU data knows, so every later use (formatting, "today" in the tenant's zone) works.
 */
import { businessRule, type FieldError } from '../errors.js';

/** ISO 4217 codes known to ICU (`Intl.supportedValuesOf('currency')`): constant for the process's life. */
const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));
/** Canonical IANA zones known to ICU (`Intl.supportedValuesOf('timeZone')`), plus `UTC`, the tenants' default. */
const TIME_ZONES: ReadonlySet<string> = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);
/** An IANA zone name's form (`Area/Location[/Sub]`): refuses abbreviations (`EST`) and offsets (`+01:00`). */
const IANA_NAME = /^[A-Z][A-Za-z_-]*(\/[A-Za-z0-9_+-]+)+$/;

/** Whether `code` is an ISO 4217 currency code this process knows (e.g. `EUR`; not `XXX` or `usd`). */
export function isKnownCurrency(code: string): boolean {
  return CURRENCIES.has(code);
}

/**
 * Whether `zone` is an IANA time zone this process knows: one of `Intl.supportedValuesOf('timeZone')`, `UTC`, or
 * an IANA alias ICU resolves to one of them (`Asia/Kolkata` for `Asia/Calcutta`, which ICU lists).
 */
export function isKnownTimeZone(zone: string): boolean {
  if (TIME_ZONES.has(zone)) return true;
  if (!IANA_NAME.test(zone)) return false;
  try {
    return TIME_ZONES.has(new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone);
  } catch {
    return false;
  }
}

/**
 * Checks a tenant change's currency and time zone.
 * @throws AppError 422 `validation_failed` naming each unknown value (`errors[].path` `/currency`, `/timezone`).
 */
export function assertKnownTenantValues(input: { currency?: string; timezone?: string }): void {
  const errors: FieldError[] = [];
  if (input.currency !== undefined && !isKnownCurrency(input.currency))
    errors.push({
      location: 'body',
      path: '/currency',
      message: `${input.currency} is not an ISO 4217 currency code this server knows.`,
    });
  if (input.timezone !== undefined && !isKnownTimeZone(input.timezone))
    errors.push({
      location: 'body',
      path: '/timezone',
      message: `${input.timezone} is not an IANA time zone this server knows.`,
    });
  if (errors.length > 0) throw businessRule(errors.map((e) => e.message).join(' '), errors);
}
