use std::fmt;

/// Every failure of this crate, each with a stable machine code that crosses the wasm boundary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CgroupError {
    /// The text is not a Kubernetes quantity (`resource.ErrFormatWrong`).
    QuantityFormat { input: String },
    /// The quantity does not fit the 64-bit value the kubelet computes with.
    QuantityRange { input: String },
    /// A CFS period outside what the kernel accepts.
    InvalidPeriod { period_us: u64 },
}

impl CgroupError {
    /// The stable code callers branch on; never the message text.
    pub fn code(&self) -> &'static str {
        match self {
            CgroupError::QuantityFormat { .. } => "E_QUANTITY_FORMAT",
            CgroupError::QuantityRange { .. } => "E_QUANTITY_RANGE",
            CgroupError::InvalidPeriod { .. } => "E_INVALID_PERIOD",
        }
    }
}

impl fmt::Display for CgroupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // The message of k8s.io/apimachinery/pkg/api/resource ErrFormatWrong.
            CgroupError::QuantityFormat { input } => write!(
                f,
                "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': {input:?}"
            ),
            CgroupError::QuantityRange { input } => {
                write!(f, "quantity {input:?} is out of the range the kubelet can represent")
            }
            CgroupError::InvalidPeriod { period_us } => write!(
                f,
                "cpu cfs period {period_us}us is out of range [1000us, 1000000us]"
            ),
        }
    }
}

impl std::error::Error for CgroupError {}
