/**
 * Tables of custom resources from their CRD's additionalPrinterColumns (k8s.io/apiextensions-apiserver
 * pkg/registry/customresource/tableconvertor/tableconvertor.go, v1.32): Name, then each column —
 * its JSONPath's first result, a string column printed as text, the other types kept as JSON
 * values (integer truncated, number, boolean) and dates as ages; nothing found → null. A CRD
 * without columns gets Age (serveDefaultColumnsIfEmpty).
 */
import type { KubeObject, Table, TableColumnDefinition } from '../../api/meta.js';
import type { CustomResourceColumnDefinition } from '../../api/types/apiextensions/v1.js';
import { humanDuration, tableOf } from '../endpoints/tables/column.js';
import { findResults, parseJsonPath, printText } from './jsonpath.js';
import type { Unchecked } from './types.js';

type Obj = Record<string, unknown>;

// metav1.ObjectMeta{}.SwaggerDoc(): the descriptions of name and creationTimestamp.
const NAME_DESCRIPTION =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';
export const CREATION_TIMESTAMP_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

/** The column definitions: Name, then the CRD's columns. */
export function customColumnDefinitions(
  columns: readonly Unchecked<CustomResourceColumnDefinition>[],
): TableColumnDefinition[] {
  return [
    { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0 },
    ...columns.map((c) => ({
      name: c.name ?? '',
      type: c.type ?? '',
      format: c.format ?? '',
      description:
        c.description !== undefined && c.description !== ''
          ? c.description
          : `Custom resource definition column (in JSONPath format): ${c.jsonPath ?? ''}`,
      priority: c.priority ?? 0,
    })),
  ];
}

/** cellForJSONValue. */
function cellFor(type: string, value: unknown, now: number): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'string':
      return typeof value === 'string' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      const ms = Date.parse(value);
      if (Number.isNaN(ms) || !/^\d{4}-\d{2}-\d{2}T/.test(value)) return '<invalid>';
      return humanDuration(now - ms);
    }
    default:
      return null;
  }
}

/** The cells of one object: its name, then each column's value. */
export function customRowCells(
  columns: readonly Unchecked<CustomResourceColumnDefinition>[],
  o: Obj,
  now: number,
): unknown[] {
  const meta = isObject(o.metadata) ? o.metadata : {};
  const cells: unknown[] = [typeof meta.name === 'string' ? meta.name : ''];
  for (const c of columns) {
    const steps = parseJsonPath(c.jsonPath ?? '');
    const results = steps === undefined ? [] : findResults(o, steps);
    if (results.length === 0) {
      cells.push(null);
      continue;
    }
    const value = results[0];
    cells.push(c.type === 'string' ? printText(value) : cellFor(c.type ?? '', value, now));
  }
  return cells;
}

const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The Table of `objects` (rows carry PartialObjectMetadata, as MetaToTableRow makes them). */
export function customTable(
  columns: readonly Unchecked<CustomResourceColumnDefinition>[],
  objects: readonly KubeObject[],
  options: { now: number; noHeaders?: boolean; resourceVersion?: string; continue?: string },
): Table {
  return tableOf(
    customColumnDefinitions(columns),
    objects,
    (o) => customRowCells(columns, o as Obj, options.now),
    options,
  );
}
