/** ts/client: one client interface over two transports, informers and the workqueue. */
export {
  type Client,
  createClient,
  type ListOptions,
  PATCH_CONTENT_TYPES,
  type PatchType,
  type Scale,
  type WatchOptions,
  type WriteOptions,
} from './client.js';
export { ApiError, errorFromResponse, isApiError, isExpired } from './errors.js';
export { type CoreEvent, EventRecorder, type EventRecorderOptions, type EventType } from './event-recorder.js';
export { type EventHandler, Informer, type InformerOptions, type InformerState, objectKey } from './informer.js';
export { apiVersionOf, type GroupVersionResource, RESOURCES, type ResourceType, resourcePath } from './resources.js';
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
export { ItemExponentialFailureRateLimiter, type RateLimiter, WorkQueue, type WorkQueueOptions } from './workqueue.js';
