//! kube-scheduler's filter and score engine: the default profile's plugins with Kubernetes'
//! own formulas, reasons and constants.
//!
//! Pure Rust, no JavaScript: `crates/wasm` exposes it to TypeScript.

pub mod plugins;
mod resource;

pub use resource::{is_extended_resource_name, NodeResources, Resource};
