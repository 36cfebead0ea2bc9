use std::fmt;

use kubewasm_api::{CodedError, QuantityError};

/// Every failure of this crate, each with a stable machine code that crosses the wasm boundary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CgroupError {
    /// A quantity that is not one (`E_QUANTITY_FORMAT`) or does not fit (`E_QUANTITY_RANGE`).
    Quantity(QuantityError),
    /// A CFS period outside what the kubelet accepts.
    InvalidPeriod { period_us: u64 },
    /// A request or limit below zero (API validation: "must be greater than or equal to 0").
    NegativeQuantity { container: String, resource: String },
    /// A request above its limit (API validation: "must be less than or equal to ... limit").
    RequestExceedsLimit { container: String, resource: String },
    /// Node memory capacity or allocatable must be positive (the OOM formula divides by it).
    InvalidCapacity { bytes: i64 },
    /// A memory page size that is not a positive power of two.
    InvalidPageSize { bytes: i64 },
    /// A memory throttling factor outside (0, 1] (kubelet config validation).
    InvalidThrottlingFactor,
    /// A cgroup name component with `/` or `_` (`NewCgroupName` forbids both).
    InvalidCgroupName { component: String },
    /// A pod without containers (API validation requires at least one).
    NoContainers,
    /// Two containers of one pod with the same name.
    DuplicateContainer { name: String },
}

impl CgroupError {
    /// The stable code callers branch on; never the message text.
    pub fn code(&self) -> &'static str {
        match self {
            CgroupError::Quantity(e) => e.code(),
            CgroupError::InvalidPeriod { .. } => "E_INVALID_PERIOD",
            CgroupError::NegativeQuantity { .. } => "E_NEGATIVE_QUANTITY",
            CgroupError::RequestExceedsLimit { .. } => "E_REQUEST_EXCEEDS_LIMIT",
            CgroupError::InvalidCapacity { .. } => "E_INVALID_CAPACITY",
            CgroupError::InvalidPageSize { .. } => "E_INVALID_PAGE_SIZE",
            CgroupError::InvalidThrottlingFactor => "E_INVALID_THROTTLING_FACTOR",
            CgroupError::InvalidCgroupName { .. } => "E_INVALID_CGROUP_NAME",
            CgroupError::NoContainers => "E_NO_CONTAINERS",
            CgroupError::DuplicateContainer { .. } => "E_DUPLICATE_CONTAINER",
        }
    }
}

impl fmt::Display for CgroupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CgroupError::Quantity(e) => e.fmt(f),
            CgroupError::InvalidPeriod { period_us } => write!(
                f,
                "cpu cfs period {period_us}us is out of range [1000us, 1000000us]"
            ),
            CgroupError::NegativeQuantity {
                container,
                resource,
            } => write!(
                f,
                "container {container:?}: {resource} must be greater than or equal to 0"
            ),
            CgroupError::RequestExceedsLimit {
                container,
                resource,
            } => write!(
                f,
                "container {container:?}: {resource} request must be less than or equal to {resource} limit"
            ),
            CgroupError::InvalidCapacity { bytes } => {
                write!(f, "node memory capacity {bytes} must be greater than 0")
            }
            CgroupError::InvalidPageSize { bytes } => {
                write!(f, "page size {bytes} must be a positive power of two")
            }
            CgroupError::InvalidThrottlingFactor => {
                write!(f, "memory throttling factor must be in (0, 1]")
            }
            CgroupError::InvalidCgroupName { component } => {
                write!(f, "invalid character in component [{component:?}] of CgroupName")
            }
            CgroupError::NoContainers => write!(f, "a pod needs at least one container"),
            CgroupError::DuplicateContainer { name } => {
                write!(f, "container name {name:?} is used twice")
            }
        }
    }
}

impl std::error::Error for CgroupError {}

/// As it crosses to JavaScript: the same code, the same message.
impl From<CgroupError> for CodedError {
    fn from(e: CgroupError) -> CodedError {
        CodedError::new(e.code(), e.to_string())
    }
}

impl From<QuantityError> for CgroupError {
    fn from(e: QuantityError) -> CgroupError {
        CgroupError::Quantity(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_stable_and_distinct() {
        let all = [
            CgroupError::Quantity(QuantityError::Format { input: "x".into() }),
            CgroupError::Quantity(QuantityError::Range { input: "x".into() }),
            CgroupError::InvalidPeriod { period_us: 1 },
            CgroupError::NegativeQuantity {
                container: "c".into(),
                resource: "cpu".into(),
            },
            CgroupError::RequestExceedsLimit {
                container: "c".into(),
                resource: "cpu".into(),
            },
            CgroupError::InvalidCapacity { bytes: 0 },
            CgroupError::InvalidPageSize { bytes: 3 },
            CgroupError::InvalidThrottlingFactor,
            CgroupError::InvalidCgroupName {
                component: "a_b".into(),
            },
            CgroupError::NoContainers,
            CgroupError::DuplicateContainer { name: "c".into() },
        ];
        let codes: Vec<&str> = all.iter().map(CgroupError::code).collect();
        assert_eq!(
            codes,
            [
                "E_QUANTITY_FORMAT",
                "E_QUANTITY_RANGE",
                "E_INVALID_PERIOD",
                "E_NEGATIVE_QUANTITY",
                "E_REQUEST_EXCEEDS_LIMIT",
                "E_INVALID_CAPACITY",
                "E_INVALID_PAGE_SIZE",
                "E_INVALID_THROTTLING_FACTOR",
                "E_INVALID_CGROUP_NAME",
                "E_NO_CONTAINERS",
                "E_DUPLICATE_CONTAINER",
            ]
        );
        for error in &all {
            assert!(!error.to_string().is_empty());
        }
    }
}
