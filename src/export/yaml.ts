/**
 * YAML text of an exported document, written directly for the documents whose every scalar
 * `yaml` would write plain: block mappings and sequences indented by two, empty ones as
 * `{}` and `[]`, the way `stringify` of the `yaml` package writes them with the options of
 * write.ts (`lineWidth: 0`). Any other document (a string that needs quotes or a block
 * scalar, a key that is not an identifier, a number that is not a safe integer) is left to
 * `yaml` ({@link plainYaml} returns undefined), so the text is always the one `yaml` writes;
 * test/export/yaml.test.ts checks that on generated documents.
 *
 * Why not `yaml` for all: building its document tree for each of 100,000 objects cost
 * export several times the time of fetching them (the export bench, src/bench/export.ts).
 */

/** Strings `yaml` writes plain in block context: no indicator first, no `: ` or ` #`, no trailing space, no controls. */
const PLAIN_STRING = /^[A-Za-z_/$(](?:[A-Za-z0-9_./@+=()~$^?{}[\],!&*%|>'"#-]|:(?! |$)| (?! |#|$))*$/;
/** Keys written plain: identifiers with dashes. */
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** Plain words the YAML 1.2 core schema reads as a boolean or null. */
const RESERVED = new Set(['true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'null', 'Null', 'NULL']);

/** Thrown inside {@link plainYaml} at the first value it does not write. */
class NotPlain extends Error {}

function scalar(value: unknown, escape: (text: string) => string): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isSafeInteger(value) && !Object.is(value, -0)) return String(value);
  if (typeof value === 'string') {
    const text = escape(value);
    if (PLAIN_STRING.test(text) && !RESERVED.has(text)) return text;
  }
  throw new NotPlain();
}

function key(name: string): string {
  if (PLAIN_KEY.test(name) && !RESERVED.has(name)) return name;
  throw new NotPlain();
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Appends `value` as the value after `- ` or `key:` at `indent`; `inline` when the line so far ends in `- `. */
function node(value: unknown, indent: string, inline: boolean, out: string[], escape: (text: string) => string): void {
  if (Array.isArray(value)) {
    if (value.length === 0) return void out.push(inline ? '[]\n' : ' []\n');
    if (!inline) out.push('\n');
    value.forEach((item: unknown, i) => {
      out.push(i === 0 && inline ? '- ' : `${indent}- `);
      node(item, `${indent}  `, true, out, escape);
    });
    return;
  }
  if (isObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return void out.push(inline ? '{}\n' : ' {}\n');
    if (!inline) out.push('\n');
    keys.forEach((name, i) => {
      out.push(i === 0 && inline ? `${key(name)}:` : `${indent}${key(name)}:`);
      node(value[name], `${indent}  `, false, out, escape);
    });
    return;
  }
  out.push(inline ? `${scalar(value, escape)}\n` : ` ${scalar(value, escape)}\n`);
}

/**
 * `document` (a mapping of JSON values) as block YAML, each string passed through `escape`
 * first, or undefined when `yaml` would write any of its values otherwise than plain.
 */
export function plainYaml(document: Readonly<Record<string, unknown>>, escape: (text: string) => string): string | undefined {
  const out: string[] = [];
  if (Object.keys(document).length === 0) return undefined;
  try {
    for (const name of Object.keys(document)) {
      out.push(key(name), ':');
      node(document[name], '  ', false, out, escape);
    }
  } catch (error) {
    if (error instanceof NotPlain) return undefined;
    throw error;
  }
  return out.join('');
}
