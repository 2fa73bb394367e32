/**
 * Reading the answer to a create (`POST /configuration/{collection}`) for the one thing a
 * plan's execution needs of it: the new object's identifier. The answer is a whole
 * resource, about 9 KB for a mapping, mostly the server's defaults; its attributes are cut
 * out unparsed by the list framing (src/gateway/data-array.ts, told that `data` holds one
 * object), and the long members the previous answer of the same collection repeated are
 * jumped over with one native comparison each.
 */
import { DocumentShapeError, toResource } from '../api/documents.js';
import type { ResourceIdentifier } from '../api/documents.js';
import { DataArraySplitter } from './data-array.js';
import type { Remembered } from './element-reductions.js';
import { UnexpectedResponseError } from './errors.js';

/**
 * The message of an error met while framing or parsing an answer's JSON, for an
 * UnexpectedResponseError: never the body's text (JSON.parse quotes it), which may hold secrets.
 * @throws the error itself when it is of another kind
 */
export function shapeProblem(error: unknown): string {
  if (error instanceof DocumentShapeError) return error.message;
  if (error instanceof SyntaxError) return 'body is not JSON';
  throw error;
}

/** What the answers to a session's creates keep from one to the next, per collection. */
export class CreatedAnswers {
  private readonly memories = new Map<string, (Remembered | undefined)[]>();

  /** A reader of one answer to a create in `collection`. */
  reader(collection: string): CreatedAnswer {
    let memory = this.memories.get(collection);
    if (!memory) this.memories.set(collection, (memory = []));
    return new CreatedAnswer(memory);
  }
}

/** One answer to a create, read as its chunks arrive ({@link sink}), then asked for its {@link identifier}. */
export class CreatedAnswer {
  private created: ResourceIdentifier | undefined;
  private problem: string | undefined;
  private readonly splitter: DataArraySplitter;

  constructor(memory: (Remembered | undefined)[]) {
    this.splitter = new DataArraySplitter(
      (element) => {
        const { type, id } = toResource(element);
        this.created = { type, id };
      },
      'data',
      [],
      { single: true, memory },
    );
  }

  /** Takes the next chunk of the body; after a problem, the rest is ignored. Throws only what is no shape problem. */
  readonly sink = (chunk: Buffer): void => {
    if (this.problem !== undefined) return;
    try {
      this.splitter.write(chunk);
    } catch (error) {
      this.problem = shapeProblem(error);
    }
  };

  /**
   * The created object's type and id, once the whole body was given to {@link sink}.
   * @throws UnexpectedResponseError (naming `method`, `path` and `status`) when the body is
   *   not a document whose `data` is a resource object with a type and an id
   */
  identifier(method: string, path: string, status: number): ResourceIdentifier {
    if (this.problem === undefined) {
      try {
        this.splitter.end();
      } catch (error) {
        this.problem = shapeProblem(error);
      }
    }
    if (this.problem !== undefined || this.created === undefined) throw new UnexpectedResponseError(method, path, status, this.problem ?? 'document without a data object');
    return this.created;
  }
}
