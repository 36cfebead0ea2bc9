/**
 * The names of the controllers, as kube-controller-manager 1.32 names them
 * (cmd/kube-controller-manager/names/controller_names.go): what `--controllers` takes, what logs
 * say. The names of the ones kubewasm runs; the others join as they are built.
 */

// cmd/kube-controller-manager/names/controller_names.go (v1.32)
export const NAMESPACE_CONTROLLER = 'namespace-controller';
export const GARBAGE_COLLECTOR_CONTROLLER = 'garbage-collector-controller';
export const RESOURCE_QUOTA_CONTROLLER = 'resourcequota-controller';
export const SERVICE_ACCOUNT_CONTROLLER = 'serviceaccount-controller';
export const ROOT_CA_CERTIFICATE_PUBLISHER_CONTROLLER = 'root-ca-certificate-publisher-controller';
