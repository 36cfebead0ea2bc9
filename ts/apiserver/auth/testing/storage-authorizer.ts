/**
 * For the authorizer's tests: the RBAC authorizer over the RBAC objects of `storage`, read through
 * informers of an apiserver of its own over that storage (the RBAC authorizer reads informers; a
 * test that puts objects into storage directly, or hands the authorizer to the server under test,
 * needs a server for them to list and watch). stop() shuts that server's informers down; await it
 * before closing the storage (a watch being opened meanwhile would find the store gone).
 */
import { createClient } from '../../../client/client.js';
import { SharedInformerFactory } from '../../../client/informers/factory.js';
import { inProcessTransport } from '../../../client/transport.js';
import type { Clock } from '../../../sim/clock.js';
import type { Storage } from '../../../storage/storage.js';
import { APISERVER_USER, SYSTEM_PRIVILEGED_GROUP } from '../../authn/user.js';
import { createApiServer } from '../../server.js';
import { createAuthorizer, type RbacAuthorizer } from '../authorizer.js';

const TOKEN = 'rbac-informers';

export function storageAuthorizer(storage: Storage, clock?: Clock): RbacAuthorizer & { stop(): Promise<void> } {
  const server = createApiServer({
    storage,
    ...(clock === undefined ? {} : { clock }),
    tokens: new Map([[TOKEN, { name: APISERVER_USER, uid: 'rbac-informers', groups: [SYSTEM_PRIVILEGED_GROUP] }]]),
  });
  const informers = new SharedInformerFactory(createClient(inProcessTransport(server, TOKEN)), {
    ...(clock === undefined ? {} : { clock }),
  });
  const authorizer = createAuthorizer(informers, storage);
  return {
    ...authorizer,
    async stop() {
      authorizer.stop();
      await informers.shutdown();
      await server.close?.();
    },
  };
}
