/**
 * What the per-group printers share: the Column shape, the AGE marker, JSON accessors and the
 * cell formatters of pkg/printers/internalversion/printers.go (v1.32) that several kinds use.
 * Descriptions are the first sentence of the SwaggerDoc the printer names (k8s.io/api
 * types_swagger_doc_generated.go), or the printer's own literal text.
 */
import { labelSelectorAsSelector } from '../../../api/labels/label-selector.js';
import type { KubeObject, LabelSelector, Table, TableColumnDefinition } from '../../../api/meta.js';

export type Obj = Record<string, unknown>;
export const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export interface Column {
  def: TableColumnDefinition;
  /** The cell of one object; `now` for columns that print ages. */
  cell: (o: Obj, now: number) => unknown;
}

/** Where the Age column goes in a layout. */
export const AGE = 'age';
export type Layout = (Column | typeof AGE)[];

export const col = (
  name: string,
  type: string,
  description: string,
  cell: (o: Obj, now: number) => unknown,
  format = '',
  priority = 0,
): Column => ({
  def: { name, type, format, description, priority },
  cell,
});

/** A `-o wide` column (priority 1). */
export const wide = (name: string, type: string, description: string, cell: (o: Obj, now: number) => unknown): Column =>
  col(name, type, description, cell, '', 1);

/**
 * The Table of `objects`, one row of `cells` each (rows carry PartialObjectMetadata, as
 * MetaToTableRow makes them); no column definitions with `noHeaders`.
 */
export function tableOf(
  columns: readonly TableColumnDefinition[],
  objects: readonly KubeObject[],
  cells: (o: KubeObject) => unknown[],
  options: { noHeaders?: boolean; resourceVersion?: string; continue?: string },
): Table {
  const metadata: Table['metadata'] = {};
  if (options.resourceVersion !== undefined) metadata.resourceVersion = options.resourceVersion;
  if (options.continue !== undefined) metadata.continue = options.continue;
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata,
    columnDefinitions: options.noHeaders ? [] : [...columns],
    rows: objects.map((o) => ({
      cells: cells(o),
      object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata ?? {} },
    })),
  };
}

/** metav1.ObjectMeta SwaggerDoc "name", first sentence. */
export const NAME_DESCRIPTION = 'Name must be unique within a namespace.';

/** duration.HumanDuration (k8s.io/apimachinery/pkg/util/duration), as `kubectl get` prints AGE. */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    return dy === 0 ? `${Math.trunc(hours / 24 / 365)}y` : `${Math.trunc(hours / 24 / 365)}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/** translateTimestampSince: `<unknown>` for a missing time. */
export function since(t: unknown, now: number): string {
  const ms = typeof t === 'string' ? Date.parse(t) : Number.NaN;
  return Number.isNaN(ms) ? '<unknown>' : humanDuration(now - ms);
}

/** layoutContainerCells: container names and images, each joined with ",". */
export function containerCells(podSpec: unknown): { names: string; images: string } {
  const containers = arr(obj(podSpec).containers).map(obj);
  return { names: containers.map((c) => str(c.name)).join(','), images: containers.map((c) => str(c.image)).join(',') };
}

/** metav1.FormatLabelSelector: the selector string, `<none>` when empty, `<error>` when invalid. */
export function formatLabelSelector(selector: unknown): string {
  try {
    const s = labelSelectorAsSelector(
      selector === undefined || selector === null ? null : (obj(selector) as LabelSelector),
    ).toString();
    return s === '' ? '<none>' : s;
  } catch {
    return '<error>';
  }
}

/** labels.FormatLabels: sorted `k=v` pairs joined with ",", `<none>` when empty. */
export function formatLabels(labels: unknown): string {
  const entries = Object.entries(obj(labels)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? '<none>' : entries.map(([k, v]) => `${k}=${String(v)}`).join(',');
}

/** intstr.IntOrString.String(): the number in decimal, or the string. */
export const intOrString = (v: unknown): string => (typeof v === 'number' ? String(v) : str(v));

/** printBoolPtr: True, False, or `<unset>`. */
export const boolPtr = (v: unknown): string => (v === true ? 'True' : v === false ? 'False' : '<unset>');

/** The Containers, Images (and Selector) wide columns of the workload printers. */
export function templateColumns(
  podSpecOf: (o: Obj) => unknown,
  selectorOf?: { description: string; cell: (o: Obj) => string },
): Column[] {
  const out = [
    wide('Containers', 'string', 'Names of each container in the template.', (o) => containerCells(podSpecOf(o)).names),
    wide(
      'Images',
      'string',
      'Images referenced by each container in the template.',
      (o) => containerCells(podSpecOf(o)).images,
    ),
  ];
  if (selectorOf) out.push(wide('Selector', 'string', selectorOf.description, selectorOf.cell));
  return out;
}

/** `spec.template.spec` of a workload. */
export const templateSpec = (o: Obj): unknown => obj(obj(obj(o.spec).template).spec);
