// Transcript text (titles, prompts, model names) is untrusted. On a terminal a raw ESC can retitle
// the window, plant a hyperlink (OSC 8) or clear the screen, and a bidi override (U+202E) can make
// "exe.png" read "gnp.exe"; in the panel those characters are invisible. Both show them instead,
// as `\u001b`-style escapes, so the text reads as what it is and cannot act.

/** C0 controls except tab and newline, DEL, C1 controls, bidi embeddings/overrides/isolates. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/** The same, newline and tab included: for one-line fields such as a title in a table. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROLS_AND_BREAKS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const escape = (char: string): string => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` with every control and bidi character written as a visible `\uXXXX`; `oneLine` escapes line breaks and tabs too. */
export function printable(text: string, oneLine = false): string {
  return text.replace(oneLine ? CONTROLS_AND_BREAKS : CONTROLS, escape);
}
