//! The node as the binding hands it over: the parts of `v1.Node` the scheduler reads.

use crate::resource::Resource;
use crate::taint::Taint;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NodeSpec {
    pub name: String,
    pub labels: Vec<(String, String)>,
    pub taints: Vec<Taint>,
    /// `spec.unschedulable` (cordoned).
    pub unschedulable: bool,
    /// `status.allocatable` without `pods`.
    pub allocatable: Resource,
    /// `status.allocatable.pods`.
    pub allowed_pod_number: i64,
    /// `status.images`.
    pub images: Vec<ContainerImage>,
}

/// `v1.ContainerImage`: every name an image is known by, and its size.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContainerImage {
    pub names: Vec<String>,
    pub size_bytes: i64,
}
