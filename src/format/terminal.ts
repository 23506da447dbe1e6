/**
 * Text from documents reaches terminals and CI logs in messages, values and names. Control characters (escape
 * sequences that clear the screen, move the cursor or recolour a log, carriage returns that overwrite a line)
 * and bidirectional overrides (which reorder what is shown) are printed as visible escapes instead; line feeds
 * and tabs stay. Machine formats (JSON, SARIF) escape them already.
 */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export function neutralizeControls(text: string): string {
  return text.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
