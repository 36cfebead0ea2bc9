//! The kubelet math's entry points. The math and its JSON face live in `kubewasm-cgroup`
//! (`kubewasm_cgroup::json`); this file only hands values over and maps errors.

use kubewasm_cgroup::json::{json_text, node_config, pod_cgroups_json};
use kubewasm_cgroup::{CpuValues, Quantity};
use wasm_bindgen::prelude::*;

use crate::error::IntoJs;

/// The CPU cgroup values of a container.
#[wasm_bindgen(getter_with_clone)]
pub struct CpuCgroup {
    pub shares: u32,
    #[wasm_bindgen(js_name = "quotaUs")]
    pub quota_us: f64,
    #[wasm_bindgen(js_name = "periodUs")]
    pub period_us: u32,
    pub weight: u32,
    #[wasm_bindgen(js_name = "cpuMax")]
    pub cpu_max: String,
}

/// CPU cgroup values for a container's CPU request and limit (quantity strings; "" = none).
#[wasm_bindgen(js_name = "cpuCgroup")]
pub fn cpu_cgroup(request: &str, limit: &str, period_us: u32) -> Result<CpuCgroup, JsValue> {
    let request = milli_or_zero(request)?;
    let limit = milli_or_zero(limit)?;
    let values = CpuValues::for_container(request, limit, u64::from(period_us)).js()?;
    Ok(CpuCgroup {
        // shares ≤ 262144 and weight ≤ 10000 always fit; quota ≤ 2^63 µs is exact in f64 up to 2^53.
        shares: values.shares as u32,
        quota_us: values.quota_us as f64,
        period_us,
        weight: values.weight as u32,
        cpu_max: values.cpu_max,
    })
}

/// A quantity in thousandths (`MilliValue`), as a bigint: `"1.5"` → `1500n`.
#[wasm_bindgen(js_name = "quantityMilliValue")]
pub fn quantity_milli_value(quantity: &str) -> Result<i64, JsValue> {
    Quantity::parse(quantity).js()?.milli_value().js()
}

/// A quantity as Kubernetes prints it (`String()`): `"1.5Gi"` → `"1536Mi"`, `"1000m"` → `"1"`.
#[wasm_bindgen(js_name = "quantityCanonical")]
pub fn quantity_canonical(quantity: &str) -> Result<String, JsValue> {
    Ok(Quantity::parse(quantity).js()?.to_string())
}

/// Everything the kubelet and runtime derive for many pods on one node, in one call: a JSON
/// array of v1 Pods and the node config JSON in, the JSON of `NodeCgroups` out. A pod that is
/// invalid gets `{error: {code, message}}` in its slot; malformed JSON or a bad node config
/// throws.
#[wasm_bindgen(js_name = "podCgroups")]
pub fn pod_cgroups(pods_json: &str, node_json: &str) -> Result<String, JsValue> {
    let node = node_config(node_json).js()?;
    pod_cgroups_json(pods_json, &node).js()
}

/// [`pod_cgroups`] with the Pod array as UTF-8 JSON bytes (`TextEncoder.encode`): one memory
/// copy into wasm instead of the glue's per-character string transfer.
#[wasm_bindgen(js_name = "podCgroupsBytes")]
pub fn pod_cgroups_bytes(pods_json: &[u8], node_json: &str) -> Result<String, JsValue> {
    let node = node_config(node_json).js()?;
    pod_cgroups_json(json_text(pods_json).js()?, &node).js()
}

fn milli_or_zero(quantity: &str) -> Result<i64, JsValue> {
    if quantity.is_empty() {
        return Ok(0);
    }
    quantity_milli_value(quantity)
}
