/**
 * The one place the CRD serving code reaches the schema library (./schema/, written beside it):
 * structural checks, custom resource validation, defaulting, pruning and the published OpenAPI
 * form of a version's openAPIV3Schema.
 */
export {
  applyDefaults,
  definitionName,
  type JSONSchemaProps,
  openApiV3ListSchema,
  openApiV3Schema,
  prune,
  validateCustomResource,
  validateStructural,
} from './schema/index.js';
