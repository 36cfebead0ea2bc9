/** JSON responses: every body kube-apiserver sends here is `application/json` (api.md §0.6). */

export const JSON_TYPE = 'application/json';

const encoder = new TextEncoder();

/**
 * A Response whose body is text already in memory. A plain Response wraps every body in a
 * ReadableStream, which in Node 20 costs more to make and read back than the apiserver spends on
 * a GET (`bench api`); this one keeps the text, answers text()/json()/arrayBuffer() from it, and
 * makes the stream only when `body` is asked for (node/https.ts reads it that way). It is a real
 * Response (status, headers, instanceof, one read only), so callers cannot tell the difference.
 */
class TextResponse extends Response {
  readonly #text: string;
  #stream: ReadableStream<Uint8Array> | null = null;
  #used = false;

  constructor(text: string, init: ResponseInit) {
    super(null, init);
    this.#text = text;
  }

  /** The body text, once; later reads fail as a consumed Response's do. */
  #take(): Promise<string> {
    if (this.#stream !== null) return new Response(this.#stream).text();
    if (this.#used) return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
    this.#used = true;
    return Promise.resolve(this.#text);
  }

  static {
    // `body` and `bodyUsed` are accessors on Response.prototype; TypeScript only lets them be
    // overridden as such through defineProperty.
    Object.defineProperty(TextResponse.prototype, 'body', {
      get(this: TextResponse) {
        if (this.#stream === null) {
          if (this.#used) return new Response('').body; // consumed: an empty, finished stream
          this.#used = true;
          this.#stream = new Response(this.#text).body;
        }
        return this.#stream;
      },
    });
    Object.defineProperty(TextResponse.prototype, 'bodyUsed', {
      get(this: TextResponse) {
        return this.#stream === null ? this.#used : this.#stream.locked;
      },
    });
  }

  override text(): Promise<string> {
    return this.#take();
  }

  override async json(): Promise<unknown> {
    return JSON.parse(await this.#take());
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = encoder.encode(await this.#take());
    return bytes.buffer.byteLength === bytes.byteLength ? bytes.buffer : bytes.slice().buffer;
  }

  override async blob(): Promise<Blob> {
    return new Blob([await this.#take()], { type: this.headers.get('Content-Type') ?? '' });
  }

  override async formData(): Promise<FormData> {
    return new Response(await this.#take(), { headers: this.headers }).formData();
  }

  override clone(): Response {
    if (this.bodyUsed) throw new TypeError('Response.clone: Body has already been consumed.');
    if (this.#stream !== null) {
      const [a, b] = this.#stream.tee();
      this.#stream = a;
      return new Response(b, { status: this.status, statusText: this.statusText, headers: this.headers });
    }
    return new TextResponse(this.#text, { status: this.status, statusText: this.statusText, headers: this.headers });
  }

  /** The text for an adapter that writes it itself; undefined once the body was read or streamed. */
  unread(): string | undefined {
    return this.#used || this.#stream !== null ? undefined : this.#text;
  }
}

/**
 * The whole body of a response made by jsonResponse, not read yet — for adapters that write bytes
 * to a socket and would otherwise read the Response's stream back (node/http2.ts) — or undefined
 * for any other response (streams, watch).
 */
export function bufferedBody(response: Response): string | undefined {
  return response instanceof TextResponse ? response.unread() : undefined;
}

/** Objects whose JSON text is known already (codec.ts storedAnswer: a write's stored text). */
const knownJson = new WeakMap<object, string>();

/** Marks `obj`'s JSON.stringify text as `text`, for jsonResponse; `obj` must not change afterwards. */
export function withJsonText<T extends object>(obj: T, text: string): T {
  knownJson.set(obj, text);
  return obj;
}

/** Lists longer than this are sent as a stream of STREAM_ITEMS-item chunks. */
const STREAM_ITEMS = 1000;

/**
 * A JSON response; `warnings` become `Warning: 299 - "<text>"` headers as the apiserver sends them.
 * A long list (`items`) is streamed a chunk of items at a time, byte for byte what
 * JSON.stringify would give: one string of a 150,000-pod list is ~500 MB, near V8's string limit
 * (2^29 − 24 characters), and making and encoding it at once doubles the memory of the answer.
 */
export function jsonResponse(
  status: number,
  body: unknown,
  options: { contentType?: string; warnings?: readonly string[] } = {},
): Response {
  const headers: [string, string][] = [['Content-Type', options.contentType ?? JSON_TYPE]];
  for (const w of options.warnings ?? []) headers.push(['Warning', `299 - ${JSON.stringify(w)}`]);
  const items = longItems(body);
  if (items !== undefined) return new Response(listStream(body as object, items), { status, headers });
  const text = body !== null && typeof body === 'object' ? knownJson.get(body) : undefined;
  return new TextResponse(text ?? JSON.stringify(body), { status, headers });
}

function longItems(body: unknown): unknown[] | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || 'toJSON' in body) return undefined;
  const items = (body as { items?: unknown }).items;
  return Array.isArray(items) && items.length > STREAM_ITEMS ? items : undefined;
}

/** `body` as JSON bytes, its `items` array a chunk at a time (pulled: the reader sets the pace). */
function listStream(body: object, items: unknown[]): ReadableStream<Uint8Array> {
  // The text around the items, with every other field where JSON.stringify puts it.
  const marker = '\u0000items\u0000';
  const outer = JSON.stringify({ ...body, items: marker });
  const field = `"items":${JSON.stringify(marker)}`;
  const at = outer.indexOf(field) + '"items":'.length;
  const head = `${outer.slice(0, at)}[`;
  const tail = `]${outer.slice(at + field.length - '"items":'.length)}`;
  let next = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next >= items.length) {
        controller.enqueue(encoder.encode(tail));
        controller.close();
        return;
      }
      // A slice as one array is faster to stringify than its items one by one and joined.
      const chunk = JSON.stringify(items.slice(next, next + STREAM_ITEMS));
      const text = chunk.slice(1, -1);
      controller.enqueue(encoder.encode(next === 0 ? head + text : `,${text}`));
      next += STREAM_ITEMS;
    },
  });
}
