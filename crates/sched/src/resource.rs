use std::collections::BTreeMap;

/// Amounts of every resource kind, as the scheduler's `framework.Resource`.
/// Scalar resources (extended resources, hugepages, attachable volumes) are kept by name in order,
/// so results never depend on hash order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Resource {
    pub milli_cpu: i64,
    /// Bytes.
    pub memory: i64,
    /// Bytes.
    pub ephemeral_storage: i64,
    pub scalar: BTreeMap<String, i64>,
}

impl Resource {
    pub fn is_zero(&self) -> bool {
        self.milli_cpu == 0
            && self.memory == 0
            && self.ephemeral_storage == 0
            && self.scalar.is_empty()
    }

    /// Adds `other` into this resource (used to account a pod placed on a node).
    pub fn add(&mut self, other: &Resource) {
        self.milli_cpu += other.milli_cpu;
        self.memory += other.memory;
        self.ephemeral_storage += other.ephemeral_storage;
        for (name, amount) in &other.scalar {
            *self.scalar.entry(name.clone()).or_default() += amount;
        }
    }

    /// Subtracts `other` (a pod leaving a node).
    pub fn sub(&mut self, other: &Resource) {
        self.milli_cpu -= other.milli_cpu;
        self.memory -= other.memory;
        self.ephemeral_storage -= other.ephemeral_storage;
        for (name, amount) in &other.scalar {
            *self.scalar.entry(name.clone()).or_default() -= amount;
        }
    }

    /// Raises every amount to at least `other`'s (init containers run one at a time).
    pub fn max_with(&mut self, other: &Resource) {
        self.milli_cpu = self.milli_cpu.max(other.milli_cpu);
        self.memory = self.memory.max(other.memory);
        self.ephemeral_storage = self.ephemeral_storage.max(other.ephemeral_storage);
        for (name, amount) in &other.scalar {
            let e = self.scalar.entry(name.clone()).or_default();
            *e = (*e).max(*amount);
        }
    }
}

/// What the scheduler knows of a node's capacity and of the pods already placed on it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NodeResources {
    /// `node.status.allocatable`.
    pub allocatable: Resource,
    /// `allocatable.pods`.
    pub allowed_pod_number: i64,
    /// Sum of the requests of the pods on the node.
    pub requested: Resource,
    pub pod_count: i64,
}

/// `v1helper.IsExtendedResourceName`: a resource outside the `kubernetes.io/` namespace, with a
/// domain prefix, that is not a quota `requests.` name.
pub fn is_extended_resource_name(name: &str) -> bool {
    let native = !name.contains('/') || name.contains("kubernetes.io/");
    !native && !name.starts_with("requests.")
}
