/** JSON helpers the strategy modules share. */
export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `o[field]` as an object, created (and set) when missing. */
export function child(o: Obj, field: string): Obj {
  const v = o[field];
  if (isObj(v)) return v;
  const created: Obj = {};
  o[field] = created;
  return created;
}

/** Every element of `o[field]` that is an object. */
export const children = (o: Obj, field: string): Obj[] => (Array.isArray(o[field]) ? o[field].filter(isObj) : []);
