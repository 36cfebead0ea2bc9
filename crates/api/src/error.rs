//! The errors of this crate and the one shape every core crate's JSON face answers with: a stable
//! machine code (`E_BAD_JSON`, …) and the message JavaScript sees.

use std::fmt;

/// A quantity that is not one, or that does not fit the numbers computed with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QuantityError {
    /// The text is not a Kubernetes quantity (`resource.ErrFormatWrong` / `ErrSuffix`).
    Format { input: String },
    /// The quantity does not fit the numbers the core crates compute with.
    Range { input: String },
}

impl QuantityError {
    /// The stable code callers branch on; never the message text.
    pub fn code(&self) -> &'static str {
        match self {
            QuantityError::Format { .. } => "E_QUANTITY_FORMAT",
            QuantityError::Range { .. } => "E_QUANTITY_RANGE",
        }
    }
}

impl fmt::Display for QuantityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // The message of k8s.io/apimachinery/pkg/api/resource ErrFormatWrong.
            QuantityError::Format { input } => write!(
                f,
                "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': {input:?}"
            ),
            QuantityError::Range { input } => {
                write!(f, "quantity {input:?} is out of the range this crate can represent")
            }
        }
    }
}

impl std::error::Error for QuantityError {}

/// `E_BAD_JSON`: input that is not JSON, or not of the shape an entry point reads.
pub const E_BAD_JSON: &str = "E_BAD_JSON";

/// A failure of a core crate's JSON face, as it crosses to JavaScript: a stable code and a
/// message. Each crate turns its own typed errors into it (`From`), keeping their codes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodedError {
    code: &'static str,
    message: String,
}

impl CodedError {
    pub fn new(code: &'static str, message: impl Into<String>) -> CodedError {
        CodedError {
            code,
            message: message.into(),
        }
    }

    /// JSON that does not parse, or does not have the shape expected: serde_json's message.
    pub fn bad_json(err: serde_json::Error) -> CodedError {
        CodedError::new(E_BAD_JSON, err.to_string())
    }

    /// JSON bytes that are not UTF-8.
    pub fn not_utf8(err: std::str::Utf8Error) -> CodedError {
        CodedError::new(E_BAD_JSON, format!("the JSON is not UTF-8: {err}"))
    }

    /// The stable code callers branch on; never the message text.
    pub fn code(&self) -> &'static str {
        self.code
    }

    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for CodedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CodedError {}

impl From<QuantityError> for CodedError {
    fn from(e: QuantityError) -> CodedError {
        CodedError::new(e.code(), e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_messages_are_stable() {
        let format = QuantityError::Format {
            input: "1KB".into(),
        };
        assert_eq!(format.code(), "E_QUANTITY_FORMAT");
        assert_eq!(
            format.to_string(),
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': \"1KB\""
        );
        let range = QuantityError::Range {
            input: "1e30".into(),
        };
        assert_eq!(range.code(), "E_QUANTITY_RANGE");
        let coded = CodedError::from(range.clone());
        assert_eq!(
            (coded.code(), coded.message()),
            ("E_QUANTITY_RANGE", range.to_string().as_str())
        );
        let bad = serde_json::from_str::<Vec<u8>>("[").map_err(CodedError::bad_json);
        assert_eq!(bad.map_err(|e| e.code()), Err("E_BAD_JSON"));
        let bytes = vec![b'[', 0xff, b']'];
        let not_utf8 = std::str::from_utf8(&bytes).map_err(CodedError::not_utf8);
        assert_eq!(
            not_utf8.map_err(|e| e.to_string()),
            Err("the JSON is not UTF-8: invalid utf-8 sequence of 1 bytes from index 1".into())
        );
    }
}
