/**
 * Keyboard-only helpers for the console's end-to-end tests: move the focus with Tab and Shift+Tab as a person without a
 * mouse does, checking at every step that the focused element shows a focus ring (docs/console.md, "Accessibility and
 * small screens").
 */
import { expect, type Locator, type Page } from '@playwright/test';

/**
 * What is wrong with the focus as it is: `null` when the focused element matches `:focus-visible` and shows a ring
 * (an outline or a box shadow; for a visually hidden input, such as a switch's, on the element Mantine draws after it),
 * otherwise a description of the element.
 */
export function focusProblem(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    const name = (e: Element) =>
      `<${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}> “${(e.textContent ?? '').trim().slice(0, 40)}”`;
    if (!el || el === document.body) return 'nothing is focused';
    if (!el.matches(':focus-visible')) return `${name(el)} does not match :focus-visible`;
    const ring = (e: Element | null) => {
      if (!e) return false;
      const s = getComputedStyle(e);
      return (s.outlineStyle !== 'none' && Number.parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
    };
    if (ring(el)) return null;
    if (getComputedStyle(el).opacity === '0' && ring(el.nextElementSibling)) return null;
    const s = getComputedStyle(el);
    return `${name(el)} shows no focus ring (outline ${s.outlineStyle} ${s.outlineWidth}, box-shadow ${s.boxShadow})`;
  });
}

/** Whether `target` has the focus. */
function isFocused(target: Locator): Promise<boolean> {
  return target.evaluate((el) => el === document.activeElement);
}

/**
 * Presses Tab (or Shift+Tab with `back`) until `target` has the focus, failing when the focus reaches it in more
 * than `max` steps or when any element focused on the way shows no focus ring.
 */
export async function tabTo(page: Page, target: Locator, { back = false, max = 40 } = {}): Promise<void> {
  await expect(target).toBeVisible();
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    expect(await focusProblem(page), `focus after ${i + 1} ${back ? 'Shift+Tab' : 'Tab'}`).toBeNull();
    if (await isFocused(target)) return;
  }
  throw new Error(`the focus did not reach ${target} in ${max} steps`);
}
