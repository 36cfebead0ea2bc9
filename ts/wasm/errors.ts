/**
 * The one error type of kubewasm's core. Branch on `code` (stable, e.g. "E_QUANTITY_FORMAT"),
 * never on the message text.
 */
export class KubewasmError extends Error {
  override readonly name = 'KubewasmError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Runs a call into wasm, turning the coded errors the binding throws into KubewasmError. */
export function callWasm<T>(call: () => T): T {
  try {
    return call();
  } catch (err) {
    if (err instanceof Error && typeof (err as { code?: unknown }).code === 'string') {
      throw new KubewasmError((err as Error & { code: string }).code, err.message);
    }
    // A trap (RuntimeError) would mean a bug in the core: surface it as such.
    throw err;
  }
}
