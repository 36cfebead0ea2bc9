//! kube-scheduler's filter and score engine: the default profile's plugins with Kubernetes'
//! own formulas, reasons and constants, over an in-memory cluster table updated incrementally.
//!
//! Pure Rust, no JavaScript: `crates/wasm` exposes it to TypeScript through [`json`], the
//! engine's JSON face (v1 Nodes and Pods in, placements out).
//!
//! ```
//! use kubewasm_sched::{Container, NodeSpec, PodSpec, Resource, Scheduler};
//! let mut s = Scheduler::with_default_profile(42);
//! s.upsert_node(&NodeSpec {
//!     name: "n1".into(),
//!     allocatable: Resource { milli_cpu: 4000, memory: 32 << 30, ..Resource::default() },
//!     allowed_pod_number: 110,
//!     ..NodeSpec::default()
//! }).unwrap();
//! let pod = PodSpec {
//!     namespace: "default".into(),
//!     name: "p".into(),
//!     containers: vec![Container::with_requests(100, 500 << 20)],
//!     ..PodSpec::default()
//! };
//! let placed = s.schedule_one(&pod).unwrap();
//! assert_eq!(placed.node.as_deref(), Some("n1"));
//! ```

pub mod affinity_term;
pub mod cluster;
pub mod error;
pub mod events;
pub mod explain;
pub mod fit_error;
pub mod hash;
pub mod intern;
pub mod json;
pub mod labels;
pub mod matcher_cache;
pub mod node;
pub mod node_hot;
pub mod node_selector;
pub mod node_tree;
pub mod plugins;
pub mod pod;
pub mod pod_info;
pub mod preemption;
pub mod profile;
mod resource;
pub mod rng;
pub mod scheduler;
pub mod select;
pub mod selector;
pub mod status;
pub mod taint;
pub mod term_index;

pub use error::SchedError;
pub use explain::{Explanation, FilterVerdict, NodeExplanation, PluginScore};
pub use node::{ContainerImage, NodeSpec};
pub use node_selector::{
    NodeSelectorOperator, NodeSelectorRequirement, NodeSelectorTerm, PreferredSchedulingTerm,
};
pub use pod::{
    Affinity, Container, ContainerPort, NodeInclusionPolicy, PodAffinityTerm, PodSpec, Protocol,
    TopologySpreadConstraint, WeightedPodAffinityTerm, WhenUnsatisfiable,
};
pub use profile::{PluginArgs, PluginRef, PluginSet, PluginsConfig, Profile, ProfileConfig};
pub use resource::{is_extended_resource_name, NodeResources, Resource};
pub use scheduler::{Placement, Scheduler};
pub use selector::{LabelSelector, LabelSelectorRequirement, SelectorOperator};
pub use taint::{Taint, TaintEffect, Toleration, TolerationOperator};
