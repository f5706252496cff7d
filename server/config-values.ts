/** Parsers of environment values shared by server/config.ts and server/config-integrations.ts. */

/** An env flag: `1`, `true`, `yes` or `on` (any case) is true; unset or empty is `fallback`. */
export function bool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}

/**
 * A non-negative integer from the env; unset or empty is `fallback`.
 * @throws Error naming the variable when the value is not a non-negative integer.
 */
export function int(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}
