/**
 * The names of the controllers, as kube-controller-manager 1.32 names them
 * (cmd/kube-controller-manager/names/controller_names.go, and k8s.io/cloud-provider/names for the
 * three cloud ones): what `--controllers` takes, what logs say. Every 1.32 name is here, those
 * kubewasm does not run yet included, so that `--controllers` accepts what kube-controller-manager
 * accepts (controller-descriptors.ts registers them all).
 */

// cmd/kube-controller-manager/names/controller_names.go (v1.32)
export const SERVICE_ACCOUNT_TOKEN_CONTROLLER = 'serviceaccount-token-controller';
export const ENDPOINTS_CONTROLLER = 'endpoints-controller';
export const ENDPOINT_SLICE_CONTROLLER = 'endpointslice-controller';
export const ENDPOINT_SLICE_MIRRORING_CONTROLLER = 'endpointslice-mirroring-controller';
export const REPLICATION_CONTROLLER_CONTROLLER = 'replicationcontroller-controller';
export const POD_GARBAGE_COLLECTOR_CONTROLLER = 'pod-garbage-collector-controller';
export const RESOURCE_QUOTA_CONTROLLER = 'resourcequota-controller';
export const NAMESPACE_CONTROLLER = 'namespace-controller';
export const SERVICE_ACCOUNT_CONTROLLER = 'serviceaccount-controller';
export const GARBAGE_COLLECTOR_CONTROLLER = 'garbage-collector-controller';
export const DAEMON_SET_CONTROLLER = 'daemonset-controller';
export const JOB_CONTROLLER = 'job-controller';
export const DEPLOYMENT_CONTROLLER = 'deployment-controller';
export const REPLICA_SET_CONTROLLER = 'replicaset-controller';
export const HORIZONTAL_POD_AUTOSCALER_CONTROLLER = 'horizontal-pod-autoscaler-controller';
export const DISRUPTION_CONTROLLER = 'disruption-controller';
export const STATEFUL_SET_CONTROLLER = 'statefulset-controller';
export const CRON_JOB_CONTROLLER = 'cronjob-controller';
export const CERTIFICATE_SIGNING_REQUEST_SIGNING_CONTROLLER = 'certificatesigningrequest-signing-controller';
export const CERTIFICATE_SIGNING_REQUEST_APPROVING_CONTROLLER = 'certificatesigningrequest-approving-controller';
export const CERTIFICATE_SIGNING_REQUEST_CLEANER_CONTROLLER = 'certificatesigningrequest-cleaner-controller';
export const TTL_CONTROLLER = 'ttl-controller';
export const BOOTSTRAP_SIGNER_CONTROLLER = 'bootstrap-signer-controller';
export const TOKEN_CLEANER_CONTROLLER = 'token-cleaner-controller';
export const NODE_IPAM_CONTROLLER = 'node-ipam-controller';
export const NODE_LIFECYCLE_CONTROLLER = 'node-lifecycle-controller';
export const TAINT_EVICTION_CONTROLLER = 'taint-eviction-controller';
export const PERSISTENT_VOLUME_BINDER_CONTROLLER = 'persistentvolume-binder-controller';
export const PERSISTENT_VOLUME_ATTACH_DETACH_CONTROLLER = 'persistentvolume-attach-detach-controller';
export const PERSISTENT_VOLUME_EXPANDER_CONTROLLER = 'persistentvolume-expander-controller';
export const CLUSTER_ROLE_AGGREGATION_CONTROLLER = 'clusterrole-aggregation-controller';
export const PERSISTENT_VOLUME_CLAIM_PROTECTION_CONTROLLER = 'persistentvolumeclaim-protection-controller';
export const PERSISTENT_VOLUME_PROTECTION_CONTROLLER = 'persistentvolume-protection-controller';
export const VOLUME_ATTRIBUTES_CLASS_PROTECTION_CONTROLLER = 'volumeattributesclass-protection-controller';
export const TTL_AFTER_FINISHED_CONTROLLER = 'ttl-after-finished-controller';
export const ROOT_CA_CERTIFICATE_PUBLISHER_CONTROLLER = 'root-ca-certificate-publisher-controller';
export const EPHEMERAL_VOLUME_CONTROLLER = 'ephemeral-volume-controller';
export const STORAGE_VERSION_GARBAGE_COLLECTOR_CONTROLLER = 'storageversion-garbage-collector-controller';
export const RESOURCE_CLAIM_CONTROLLER = 'resourceclaim-controller';
export const LEGACY_SERVICE_ACCOUNT_TOKEN_CLEANER_CONTROLLER = 'legacy-serviceaccount-token-cleaner-controller';
export const VALIDATING_ADMISSION_POLICY_STATUS_CONTROLLER = 'validatingadmissionpolicy-status-controller';
export const SERVICE_CIDR_CONTROLLER = 'service-cidr-controller';
export const STORAGE_VERSION_MIGRATOR_CONTROLLER = 'storage-version-migrator-controller';
export const SELINUX_WARNING_CONTROLLER = 'selinux-warning-controller';

// k8s.io/cloud-provider/names/controller_names.go: the cloud provider controllers kube-controller-manager registers too.
export const SERVICE_LB_CONTROLLER = 'service-lb-controller';
export const NODE_ROUTE_CONTROLLER = 'node-route-controller';
export const CLOUD_NODE_LIFECYCLE_CONTROLLER = 'cloud-node-lifecycle-controller';
