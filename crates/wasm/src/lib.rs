//! The JavaScript face of kubewasm's core: thin wasm-bindgen handles over `kubewasm-store`,
//! `kubewasm-sched` and `kubewasm-cgroup`. No logic lives here — only conversion — and nothing
//! panics across the boundary: every failure is a JS `Error` whose `code` is the core's stable code.

mod cgroup;
mod convert;
mod error;
mod k8s;
mod profile;
mod sched;
mod store;
