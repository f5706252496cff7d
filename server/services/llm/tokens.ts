/**
 * The prompt's token budget (docs/agents.md, "Bring your own model"): what a prompt may spend so that it, the system
 * prompt and the reply fit the model's context (`MERIDIAN_LLM_CONTEXT_TOKENS`).
 *
 * Tokens are estimated, not counted: the model behind the URL is unknown, and each family has its own tokenizer
 * (Qwen, Llama, Gemma, GPT). The estimate is conservative for all of them: every digit is a token (Qwen and Llama 3
 * split numbers digit by digit or in threes; counting each digit is the upper bound) and every other three bytes of
 * UTF-8 are a token (BPE vocabularies of 100k–260k entries average about four bytes of English or JSON per token).
 * Measured against the figures of the issue that set it (prompts of 454–35,008 Qwen tokens), it overestimates.
 */

/** Tokens a chat template adds around the messages (role markers, separators), reserved once per call. */
export const TEMPLATE_TOKENS = 64;

/** A conservative estimate of the tokens of `text` (rules above). */
export function estimateTokens(text: string): number {
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) digits += 1;
  }
  const otherBytes = Buffer.byteLength(text, 'utf8') - digits;
  return digits + Math.ceil(otherBytes / 3);
}
