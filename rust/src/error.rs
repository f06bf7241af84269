//! Errors of the safe Rust layer. The JNI shell turns each into a Java exception whose class is
//! chosen by [`Error::java_class`] and whose message is the `Display` text, which always names the
//! file or column involved.

use vortex_error::VortexError;

/// Result of the safe Rust layer.
pub type Result<T> = std::result::Result<T, Error>;

/// What went wrong, with the file or column it concerns.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file cannot be opened, read or written.
    #[error("{path}: {message}")]
    File { path: String, message: String },

    /// A column is unknown, or a predicate does not fit it.
    #[error("column '{column}': {message}")]
    Column { column: String, message: String },

    /// A column's dtype cannot be read by vortex4j.
    #[error("column '{column}' has dtype {dtype}, which vortex4j does not read")]
    UnsupportedColumn { column: String, dtype: String },

    /// An argument from Java is malformed (a bad predicate encoding, a batch of the wrong shape).
    #[error("{0}")]
    Invalid(String),

    /// A vortex operation failed.
    #[error("{context}: {}", concise(source))]
    Vortex {
        context: String,
        #[source]
        source: VortexError,
    },
}

/// A vortex error without the backtrace vortex appends when `RUST_BACKTRACE` is set: it would
/// bury the message Java users read.
pub(crate) fn concise(e: &VortexError) -> String {
    let text = e.to_string();
    match text.find("\nBacktrace:\n") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

impl Error {
    /// The Java exception class this error is thrown as.
    pub fn java_class(&self) -> &'static str {
        match self {
            Error::UnsupportedColumn { .. } => "java/lang/UnsupportedOperationException",
            _ => "io/vortex4j/VortexException",
        }
    }

    /// A file error.
    pub fn file(path: impl Into<String>, message: impl Into<String>) -> Self {
        Error::File {
            path: path.into(),
            message: message.into(),
        }
    }

    /// Names the file in an error about one of its columns (the column knows no path).
    pub fn in_file(self, path: &str) -> Self {
        match self {
            Error::Column { .. } => Error::file(path, self.to_string()),
            other => other,
        }
    }

    /// A column error.
    pub fn column(column: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Column {
            column: column.into(),
            message: message.into(),
        }
    }
}

/// Adds context (a file path, a column) to vortex errors.
pub trait Context<T> {
    /// Wraps the error with `context`, computed only on failure.
    fn context(self, context: impl FnOnce() -> String) -> Result<T>;
}

impl<T> Context<T> for std::result::Result<T, VortexError> {
    fn context(self, context: impl FnOnce() -> String) -> Result<T> {
        self.map_err(|source| Error::Vortex {
            context: context(),
            source,
        })
    }
}
