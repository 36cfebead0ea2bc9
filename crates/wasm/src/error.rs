use wasm_bindgen::JsValue;

/// A core error that has a stable machine code.
pub(crate) trait Coded: std::fmt::Display {
    fn code(&self) -> &'static str;
}

impl Coded for kubewasm_cgroup::CgroupError {
    fn code(&self) -> &'static str {
        kubewasm_cgroup::CgroupError::code(self)
    }
}

impl Coded for kubewasm_api::QuantityError {
    fn code(&self) -> &'static str {
        kubewasm_api::QuantityError::code(self)
    }
}

impl Coded for kubewasm_api::CodedError {
    fn code(&self) -> &'static str {
        kubewasm_api::CodedError::code(self)
    }
}

impl Coded for kubewasm_store::StoreError {
    fn code(&self) -> &'static str {
        kubewasm_store::StoreError::code(self)
    }
}

/// Errors of the binding itself: input that did not even reach a core crate (the store's batch
/// offsets).
pub(crate) struct BindingError {
    pub code: &'static str,
    pub message: String,
}

impl std::fmt::Display for BindingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl Coded for BindingError {
    fn code(&self) -> &'static str {
        self.code
    }
}

/// Turns a core error into `Error { name: "KubewasmError", code, message }` for JavaScript.
pub(crate) fn to_js(err: impl Coded) -> JsValue {
    let js = js_sys::Error::new(&err.to_string());
    js.set_name("KubewasmError");
    // Reflect::set only fails on frozen objects; a fresh Error is not one.
    let _ = js_sys::Reflect::set(
        &js,
        &JsValue::from_str("code"),
        &JsValue::from_str(err.code()),
    );
    js.into()
}

/// `result.map_err(to_js)` for any coded error.
pub(crate) trait IntoJs<T> {
    fn js(self) -> Result<T, JsValue>;
}

impl<T, E: Coded> IntoJs<T> for Result<T, E> {
    fn js(self) -> Result<T, JsValue> {
        self.map_err(to_js)
    }
}
