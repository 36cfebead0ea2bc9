//! The JavaScript face of kubewasm's core: thin wasm-bindgen handles over `kubewasm-store`,
//! `kubewasm-sched` and `kubewasm-cgroup`. No Kubernetes rule and no JSON conversion lives here
//! (the core crates' `json` modules read and write the objects) — only handles, entry points and
//! error mapping — and nothing panics across the boundary: every failure is a JS `Error` whose
//! `code` is the core's stable code.

mod cgroup;
mod error;
mod sched;
mod store;
