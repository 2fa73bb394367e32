/**
 * With `allowExternalLinks`, validate, plan, apply and drift warn at every link to a name
 * no manifest declares (it will have to exist on the gateway). Tests of exported projects,
 * which rely on such links, check that nothing else is said.
 */

/** A warning about a link to a name declared in no manifest, as a text line. */
const EXTERNAL_LINK_WARNING = /^\S+:\d+:\d+: warning: .*, which is declared in no manifest and will have to exist on the gateway \(allowExternalLinks\).* \[unresolved-link\]$/;

/** The validate summary line of warnings only (`0 errors, 3 warnings`). */
const WARNINGS_ONLY_SUMMARY = /^0 errors, \d+ warnings?$/;

/**
 * `text` (text-format output) without the warnings about links to undeclared names and the
 * summary line that counts only warnings; every other line is kept as it is.
 */
export function apartFromExternalLinkWarnings(text: string): string {
  return text
    .split('\n')
    .filter((line) => !EXTERNAL_LINK_WARNING.test(line) && !WARNINGS_ONLY_SUMMARY.test(line))
    .join('\n');
}
