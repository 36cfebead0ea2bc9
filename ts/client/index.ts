/** ts/client: one client interface over two transports, shared informers and the workqueue. */

export { type DeepReadonly, type DeepWritable, deepCopy } from '../api/types/readonly.js';
export {
  type BodyOf,
  type Client,
  createClient,
  type ListOptions,
  PATCH_CONTENT_TYPES,
  type PatchOptions,
  type PatchType,
  type Scale,
  type WatchOptions,
  type WriteOptions,
} from './client.js';
export { errorFromResponse } from './errors.js';
export { type CoreEvent, EventRecorder, type EventRecorderOptions, type EventType } from './event-recorder.js';
export { resourceString, SharedInformerFactory, type SharedInformerFactoryOptions } from './informers/factory.js';
export { filteringHandler } from './informers/filtering-handler.js';
export {
  addPodControllerIndexer,
  addPodNodeNameIndexer,
  filterPodsByOwner,
  type Indexers,
  type IndexFunc,
  metaNamespaceIndexFunc,
  NAMESPACE_INDEX,
  POD_CONTROLLER_INDEX,
  POD_NODE_NAME_INDEX,
  podControllerIndexFunc,
  podControllerIndexKey,
  podNodeNameIndexFunc,
} from './informers/index-funcs.js';
export { keyOf, objectKey, splitObjectKey } from './informers/keys.js';
export { Lister, NamespaceLister } from './informers/listers.js';
export {
  type EventHandler,
  type EventHandlerRegistration,
  type InformerOptions,
  type InformerState,
  SharedIndexInformer,
  /** The standalone SharedIndexInformer (not from a factory), under its former name. */
  SharedIndexInformer as Informer,
  type TransformFunc,
} from './informers/shared-informer.js';
export { IndexError, type Indexer, ThreadSafeStore } from './informers/thread-safe-store.js';
export {
  apiVersionOf,
  type GroupVersionResource,
  type ObjectOfResource,
  RESOURCES,
  type ResourceType,
  resourcePath,
} from './resources.js';
export {
  type HttpTransportOptions,
  httpTransport,
  inProcessTransport,
  type RequestHandler,
  type Transport,
  type WebSocketEventLike,
  type WebSocketFactory,
  type WebSocketLike,
  webSocketProtocols,
} from './transport.js';
export { type WatchEvent, type WatchStream, watchStream } from './watch-stream.js';
export {
  BucketRateLimiter,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
  type RateLimiter,
  WorkQueue,
  type WorkQueueOptions,
} from './workqueue.js';
