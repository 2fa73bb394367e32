/**
 * The little XML the emulator's export archives hold (docs/gateway-api.md "Export and
 * import"): elements with attributes and text, written indented, and read back from what
 * clients produce when they edit an export (Python's ElementTree: no declaration or one,
 * self-closing empty elements, character and entity references, CDATA, comments). Mixed
 * content is read as the concatenated text of the element (whitespace only between child
 * elements reads as no text); a DOCTYPE is refused (no entity definitions, so no entity
 * expansion). Reading, checking and writing are fast-xml-parser's; this module only maps
 * its ordered form to {@link XmlElement}.
 */
import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';
import { withoutDelimited } from '../core/linear-text.js';

/** One element: name, attributes, child elements and its own text (concatenated). */
export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly XmlElement[];
  readonly text: string;
}

/** A document that cannot be read. */
export class XmlFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlFormatError';
  }
}

/** An element with child elements, or with text when `content` is a string. */
export function element(name: string, content: readonly XmlElement[] | string, attributes: Record<string, string> = {}): XmlElement {
  return typeof content === 'string' ? { name, attributes, children: [], text: content } : { name, attributes, children: content, text: '' };
}

/** The first child element named `name`. */
export function childNamed(parent: XmlElement, name: string): XmlElement | undefined {
  return parent.children.find((c) => c.name === name);
}

/** The child elements named `name`. */
export function childrenNamed(parent: XmlElement, name: string): XmlElement[] {
  return parent.children.filter((c) => c.name === name);
}

/** fast-xml-parser's ordered form: one entry per node; an element's attributes under `:@`. */
type OrderedNode = Record<string, unknown> & { ':@'?: Record<string, string> };

const ATTRIBUTE_PREFIX = '@_';
const TEXT = '#text';
const CDATA = '#cdata';
const COMMENT = '#comment';
const OPTIONS = {
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: ATTRIBUTE_PREFIX,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  cdataPropName: CDATA,
  commentPropName: COMMENT,
  processEntities: true,
  htmlEntities: true, // decodes numeric character references; other named entities are refused before parsing
} as const;

const parser = new XMLParser(OPTIONS);
const builder = new XMLBuilder({ ...OPTIONS, format: true, indentBy: '  ', suppressEmptyNode: true });

function toOrdered(el: XmlElement): OrderedNode {
  const content: OrderedNode[] = el.children.length > 0 ? el.children.map(toOrdered) : el.text === '' ? [] : [{ [TEXT]: el.text }];
  const node: OrderedNode = { [el.name]: content };
  const attributes = Object.entries(el.attributes);
  if (attributes.length > 0) node[':@'] = Object.fromEntries(attributes.map(([k, v]) => [ATTRIBUTE_PREFIX + k, v]));
  return node;
}

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** The document of `root`, UTF-8, with an XML declaration, indented by two spaces. */
export function writeXml(root: XmlElement): string {
  const xml = String(builder.build([toOrdered(root)])).trim();
  return `${DECLARATION}${xml}\n`;
}

/**
 * An element whose children are made one at a time while the document is written
 * ({@link writeXmlPieces}): a list of 100,000 mappings never exists as elements, nor its
 * document as one string.
 */
export interface StreamedElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly stream: Iterable<XmlElement | StreamedElement>;
}

function isStreamed(el: XmlElement | StreamedElement): el is StreamedElement {
  return 'stream' in el;
}

/** The name of the placeholder child that marks where a streamed element's children go. */
const MARK = 'gwops-streamed-children';

/** `el` wrapped in `depth` elements (so the builder indents it as at that depth). */
function wrapped(el: XmlElement, depth: number): XmlElement {
  let out = el;
  for (let i = 0; i < depth; i++) out = element('w', [out]);
  return out;
}

/** The text of the `depth` wrappers before and after what they wrap ({@link wrapped}), built once per depth. */
const wrapperText = new Map<number, { before: number; after: number }>();

/** The text the builder writes for `el` at `depth` inside a document (leading line break and indentation included). */
function builtAt(el: XmlElement, depth: number): string {
  let cut = wrapperText.get(depth);
  if (!cut) {
    const text = String(builder.build([toOrdered(wrapped(element(MARK, ''), depth))]));
    const at = text.indexOf(`<${MARK}/>`);
    cut = { before: text.lastIndexOf('\n', at), after: text.length - at - MARK.length - 3 };
    wrapperText.set(depth, cut);
  }
  const text = String(builder.build([toOrdered(wrapped(el, depth))]));
  return text.slice(cut.before, text.length - cut.after);
}

/** The pieces of `el` at `depth`: a streamed element's opening tag, each child's text, its closing tag. */
function* piecesAt(el: XmlElement | StreamedElement, depth: number): Generator<string> {
  if (!isStreamed(el)) {
    yield builtAt(el, depth);
    return;
  }
  const children = el.stream[Symbol.iterator]();
  let next = children.next();
  if (next.done === true) {
    yield builtAt(element(el.name, [], { ...el.attributes }), depth);
    return;
  }
  const shell = builtAt(element(el.name, [element(MARK, '')], { ...el.attributes }), depth);
  const at = shell.indexOf(`<${MARK}/>`);
  yield shell.slice(0, shell.lastIndexOf('\n', at));
  for (; next.done !== true; next = children.next()) yield* piecesAt(next.value, depth + 1);
  yield shell.slice(at + MARK.length + 3);
}

/**
 * The document of `root` in pieces: {@link writeXml}'s text, character for character, for
 * the same elements, with the children of streamed elements made and written one at a time.
 */
export function* writeXmlPieces(root: XmlElement | StreamedElement): Generator<string> {
  yield DECLARATION;
  let first = true;
  let held: string | undefined;
  for (const piece of piecesAt(root, 0)) {
    if (held !== undefined) yield held;
    held = first ? piece.trimStart() : piece;
    first = false;
  }
  yield `${(held ?? '').trimEnd()}\n`;
}

function nameOf(node: OrderedNode): string | undefined {
  return Object.keys(node).find((k) => k !== ':@');
}

function fromOrdered(node: OrderedNode, name: string): XmlElement {
  const content = node[name];
  const nodes = Array.isArray(content) ? (content as OrderedNode[]) : [];
  const children: XmlElement[] = [];
  let text = '';
  for (const child of nodes) {
    const childName = nameOf(child);
    if (childName === undefined || childName === COMMENT) continue;
    if (childName === TEXT) text += String(child[TEXT]);
    else if (childName === CDATA) text += (child[CDATA] as OrderedNode[]).map((t) => String(t[TEXT])).join('');
    else children.push(fromOrdered(child, childName));
  }
  const attributes = Object.fromEntries(Object.entries(node[':@'] ?? {}).map(([k, v]) => [k.slice(ATTRIBUTE_PREFIX.length), String(v)]));
  return { name, attributes, children, text: children.length > 0 && text.trim() === '' ? '' : text };
}

const KNOWN_ENTITY = /&(?:#x[0-9A-Fa-f]+|#[0-9]+|lt|gt|amp|quot|apos);/g;

/**
 * Parses a document into its root element.
 * @throws XmlFormatError when the text is not well-formed XML of the kind described above.
 */
export function parseXml(input: string): XmlElement {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  if (/<!DOCTYPE/i.test(text)) throw new XmlFormatError('document type declarations are not accepted');
  if (/&/.test(withoutDelimited(text.replace(KNOWN_ENTITY, ''), [['<![CDATA[', ']]>']]))) throw new XmlFormatError('unknown entity or a bare &');
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new XmlFormatError(`not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  const roots = (parser.parse(text) as OrderedNode[]).filter((n) => {
    const name = nameOf(n);
    return name !== undefined && name !== COMMENT && name !== '?xml' && !(name === TEXT && String(n[TEXT]).trim() === '');
  });
  const root = roots[0];
  const rootName = root ? nameOf(root) : undefined;
  if (roots.length !== 1 || root === undefined || rootName === undefined || rootName === TEXT) {
    throw new XmlFormatError('a document has exactly one root element');
  }
  return fromOrdered(root, rootName);
}
