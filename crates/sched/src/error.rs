//! Typed errors with stable machine codes; the binding maps `code()` to its own error objects.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchedError {
    /// No node of that name is in the table.
    UnknownNode(String),
    /// No pod with that `namespace/name` key is in the table.
    UnknownPod(String),
    /// A pod with that key is already in the table.
    DuplicatePod(String),
    /// A label selector or node selector that Kubernetes would reject.
    InvalidSelector(String),
    /// A field value outside what Kubernetes accepts (weights, maxSkew, operators…).
    InvalidField(String),
    /// A profile names a plugin this engine does not have.
    UnknownPlugin(String),
    /// A profile or plugin argument Kubernetes' config validation would reject.
    InvalidConfig(String),
}

impl SchedError {
    /// Stable code for callers to branch on, never the message.
    pub fn code(&self) -> &'static str {
        match self {
            SchedError::UnknownNode(_) => "E_UNKNOWN_NODE",
            SchedError::UnknownPod(_) => "E_UNKNOWN_POD",
            SchedError::DuplicatePod(_) => "E_DUPLICATE_POD",
            SchedError::InvalidSelector(_) => "E_INVALID_SELECTOR",
            SchedError::InvalidField(_) => "E_INVALID_FIELD",
            SchedError::UnknownPlugin(_) => "E_UNKNOWN_PLUGIN",
            SchedError::InvalidConfig(_) => "E_INVALID_CONFIG",
        }
    }
}

impl fmt::Display for SchedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let detail = match self {
            SchedError::UnknownNode(s)
            | SchedError::UnknownPod(s)
            | SchedError::DuplicatePod(s)
            | SchedError::InvalidSelector(s)
            | SchedError::InvalidField(s)
            | SchedError::UnknownPlugin(s)
            | SchedError::InvalidConfig(s) => s,
        };
        write!(f, "{}: {}", self.code(), detail)
    }
}

impl std::error::Error for SchedError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_stable() {
        assert_eq!(SchedError::UnknownNode("n".into()).code(), "E_UNKNOWN_NODE");
        assert_eq!(SchedError::UnknownPod("p".into()).code(), "E_UNKNOWN_POD");
        assert_eq!(
            SchedError::DuplicatePod("p".into()).code(),
            "E_DUPLICATE_POD"
        );
        assert_eq!(
            SchedError::InvalidSelector("s".into()).code(),
            "E_INVALID_SELECTOR"
        );
        assert_eq!(
            SchedError::InvalidField("f".into()).code(),
            "E_INVALID_FIELD"
        );
        assert_eq!(
            SchedError::UnknownPlugin("x".into()).code(),
            "E_UNKNOWN_PLUGIN"
        );
        assert_eq!(
            SchedError::InvalidConfig("c".into()).code(),
            "E_INVALID_CONFIG"
        );
        assert_eq!(
            SchedError::UnknownNode("n1".into()).to_string(),
            "E_UNKNOWN_NODE: n1"
        );
    }
}
