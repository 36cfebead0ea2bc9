//! The Kubernetes API pieces the core crates share (the role of k8s.io/apimachinery's
//! `pkg/api/resource` and k8s.io/api): [`Quantity`], the v1 Pod and Node as the scheduler and the
//! kubelet math read them from JSON ([`v1`]), and [`CodedError`], the code-and-message shape in
//! which every core crate's JSON face fails.
//!
//! Pure Rust, no JavaScript: `crates/wasm` is the only crate that knows about the boundary.
//!
//! ```
//! use kubewasm_api::{v1, Quantity};
//! let pod: v1::Pod = serde_json::from_str(
//!     r#"{"metadata":{"name":"web"},"spec":{"containers":[{"resources":{"requests":{"cpu":"250m"}}}]}}"#,
//! ).unwrap();
//! let requests = pod.spec.containers[0].resources.requests.quantities().unwrap();
//! assert_eq!(requests["cpu"].milli_value(), Ok(250));
//! assert_eq!(Quantity::parse("1.5Gi").unwrap().to_string(), "1536Mi");
//! ```

mod error;
mod quantity;
pub mod v1;

pub use error::{CodedError, QuantityError, E_BAD_JSON};
pub use quantity::{Format, Quantity};
