import { afterAll, beforeAll } from 'vitest';
import { EtcdStorage } from '../../ts/storage/etcd/etcd-storage.js';
import { type EtcdServer, startEtcd } from '../../ts/storage/etcd/local-etcd.js';
import { storageContract } from './contract.js';

let etcd: EtcdServer;
beforeAll(async () => {
  etcd = await startEtcd();
}, 30_000);
afterAll(async () => {
  await etcd?.stop();
});

storageContract('etcd 3.4 through etcd3', async () => new EtcdStorage({ hosts: etcd.endpoint }), {
  progressRequest: false,
});
