//! Resource math of the kubelet and the container runtime: Kubernetes quantities, and the
//! cgroup values a container's CPU and memory requests and limits become.
//!
//! Pure Rust, no JavaScript: `crates/wasm` exposes it to TypeScript.

mod cpu;
mod error;
mod quantity;

pub use cpu::{
    cpu_weight_linear, milli_cpu_to_quota, milli_cpu_to_shares, CpuValues, MAX_SHARES,
    MIN_QUOTA_PERIOD, MIN_SHARES, QUOTA_PERIOD,
};
pub use error::CgroupError;
pub use quantity::Quantity;
