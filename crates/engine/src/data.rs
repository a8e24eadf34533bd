//! Data files: loading TOML into plain serde structs, errors that name file, line and the
//! valid values, provenance on every value, and the override folder through which a player
//! who owns the printed game replaces any table, map or counter.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// A set of data files by path relative to the data root (`crusades-ii/hattin/map.toml`).
#[derive(Clone, Debug, Default)]
pub struct DataSet {
    files: BTreeMap<String, String>,
    /// Where each file came from, for messages (`built-in` or the override folder).
    origin: BTreeMap<String, String>,
}

/// One problem in a data file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DataError {
    /// The file, relative to the data root.
    pub file: String,
    /// The line (1-based), when known.
    pub line: Option<usize>,
    /// What is wrong, with the valid values where there is a list of them.
    pub message: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}: {}", self.file, line, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// Every problem found, reported at once.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DataErrors(pub Vec<DataError>);

impl fmt::Display for DataErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for DataErrors {}

impl From<DataError> for DataErrors {
    fn from(e: DataError) -> Self {
        DataErrors(vec![e])
    }
}

impl DataErrors {
    /// Adds a problem.
    pub fn push(&mut self, file: &str, line: Option<usize>, message: impl Into<String>) {
        self.0.push(DataError {
            file: file.to_string(),
            line,
            message: message.into(),
        });
    }

    /// Gives each problem without a line the line of its file where the first value quoted in
    /// its message (between backticks) first appears, so that checks made after parsing
    /// still point at the line to mend.
    pub fn locate(&mut self, data: &DataSet) {
        for e in &mut self.0 {
            if e.line.is_some() {
                continue;
            }
            let Ok(text) = data.text(&e.file) else {
                continue;
            };
            let quoted = e.message.split('`').nth(1).filter(|q| !q.is_empty());
            if let Some(q) = quoted {
                if let Some(at) = text.find(q) {
                    e.line = Some(line_of(text, at));
                }
            }
        }
    }

    /// `Ok(value)` when no problem was found.
    pub fn into_result<T>(self, value: T) -> Result<T, DataErrors> {
        if self.0.is_empty() {
            Ok(value)
        } else {
            Err(self)
        }
    }
}

impl DataSet {
    /// A data set of the given files (path, text).
    pub fn from_files<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> Self {
        let mut set = DataSet::default();
        for (path, text) in files {
            set.files.insert(path.to_string(), text.to_string());
            set.origin.insert(path.to_string(), "built-in".to_string());
        }
        set
    }

    /// Replaces files with those found under `dir` at the same relative paths; files only in
    /// `dir` are added. Returns the paths replaced or added.
    pub fn override_from(&mut self, dir: &Path) -> Result<Vec<String>, DataErrors> {
        let mut changed = Vec::new();
        let mut errors = DataErrors::default();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            let entries = match std::fs::read_dir(&d) {
                Ok(e) => e,
                Err(e) => {
                    errors.push(
                        &d.display().to_string(),
                        None,
                        format!("cannot read folder: {e}"),
                    );
                    continue;
                }
            };
            let mut entries: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
            entries.sort();
            for p in entries {
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "toml") {
                    let rel = p
                        .strip_prefix(dir)
                        .map(|r| r.to_string_lossy().replace('\\', "/"))
                        .unwrap_or_default();
                    match std::fs::read_to_string(&p) {
                        Ok(text) => {
                            self.files.insert(rel.clone(), text);
                            self.origin.insert(rel.clone(), p.display().to_string());
                            changed.push(rel);
                        }
                        Err(e) => errors.push(&rel, None, format!("cannot read: {e}")),
                    }
                }
            }
        }
        errors.into_result(changed)
    }

    /// The text of a file, or an error naming it.
    pub fn text(&self, path: &str) -> Result<&str, DataError> {
        self.files
            .get(path)
            .map(String::as_str)
            .ok_or_else(|| DataError {
                file: path.to_string(),
                line: None,
                message: "missing data file".to_string(),
            })
    }

    /// Where a file came from.
    pub fn origin(&self, path: &str) -> &str {
        self.origin.get(path).map(String::as_str).unwrap_or("?")
    }

    /// Paths of the files under `prefix`.
    pub fn paths_under<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.files
            .keys()
            .filter(move |k| k.starts_with(prefix))
            .map(String::as_str)
    }

    /// Parses a TOML file into `T`, naming the file and line of any error.
    pub fn parse<T: DeserializeOwned>(&self, path: &str) -> Result<T, DataError> {
        let text = self.text(path)?;
        toml::from_str(text).map_err(|e| DataError {
            file: path.to_string(),
            line: e.span().map(|s| line_of(text, s.start)),
            message: e.message().trim().to_string(),
        })
    }

    /// The line (1-based) of a byte offset in a file.
    pub fn line(&self, path: &str, offset: usize) -> Option<usize> {
        self.files.get(path).map(|t| line_of(t, offset))
    }

    /// A version of the data: a hash of every file's path and text. Stored in game records so
    /// that a replay with other data is noticed.
    pub fn version(&self, prefix: &str) -> String {
        let mut h = blake3::Hasher::new();
        for (path, text) in self.files.iter().filter(|(k, _)| k.starts_with(prefix)) {
            h.update(path.as_bytes());
            h.update(&[0]);
            h.update(text.as_bytes());
            h.update(&[0]);
        }
        h.finalize().to_hex()[..16].to_string()
    }
}

/// The 1-based line of a byte offset in `text`.
pub fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// Whether a value is printed in the rulebook or reconstructed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// Printed in the rulebook, used exactly.
    Printed,
    /// Not printed (cut off, or on a map or counter sheet the texts lack): reconstructed.
    Reconstructed,
}

/// Where a value comes from: printed, or reconstructed with a reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    /// Printed or reconstructed.
    pub source: Source,
    /// For a reconstructed value, why it is what it is; for a printed one, where it is printed.
    #[serde(default)]
    pub reason: String,
}

impl Provenance {
    /// Checks that a reconstructed value gives its reason.
    pub fn check(&self, file: &str, what: &str, errors: &mut DataErrors) {
        if self.source == Source::Reconstructed && self.reason.trim().is_empty() {
            errors.push(
                file,
                None,
                format!("{what}: a reconstructed value must give its reason"),
            );
        }
    }
}

/// One entry of `crusades data audit`: a value and where it comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditEntry {
    /// The data file.
    pub file: String,
    /// What the value is ("Melee Table row 5", "map of Hattin").
    pub item: String,
    /// Printed or reconstructed.
    pub source: Source,
    /// The reason given.
    pub reason: String,
}
