/** metav1.LabelSelectorAsSelector for validation: the selector, or undefined when it cannot convert. */
import { labelSelectorAsSelector } from '../../labels/label-selector.js';
import type { Selector } from '../../labels/selector.js';
import type { LabelSelector } from '../../meta.js';

/** A nil selector is Nothing (matches no labels), an empty one Everything; undefined on an error. */
export function asSelector(sel: LabelSelector | undefined): Selector | undefined {
  try {
    return labelSelectorAsSelector(sel);
  } catch {
    return undefined;
  }
}
