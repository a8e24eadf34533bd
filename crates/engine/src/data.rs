//! Data files: loading TOML into plain serde structs, errors that name file, line and the
//! valid values, provenance on every value, and the override folder through which a player
//! who owns the printed game replaces any table, map or counter; and the readers of what every
//! game's map data writes alike: hex ids as printed, hex lists with column runs, hexsides.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use hexgrid::{Grid, HexId, Hexside};
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

    /// A problem with what was asked on the command line or through the server (an unknown
    /// scenario or option), which is in no data file.
    pub fn command_line(message: impl Into<String>) -> Self {
        DataErrors(vec![DataError {
            file: "(command line)".to_string(),
            line: None,
            message: message.into(),
        }])
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

/// `what: message`, or the message alone where `what` is empty: a problem names the entry it
/// is in, so that the line to mend is found.
fn in_entry(what: &str, message: String) -> String {
    if what.is_empty() {
        message
    } else {
        format!("{what}: {message}")
    }
}

/// Reads one hex of a data file, written as printed on the map (`"1203"`: column then row),
/// and checks that it is on `grid`. A problem is pushed to `errors`, naming `file`, the entry
/// `what` it is in (empty: none) and the map's corners.
pub fn hex_id(
    grid: &Grid,
    text: &str,
    file: &str,
    what: &str,
    errors: &mut DataErrors,
) -> Option<HexId> {
    let message = match text.trim().parse::<HexId>() {
        Ok(id) if grid.contains_id(id) => return Some(id),
        Ok(_) => format!(
            "hex `{text}` is off the map ({} to {})",
            grid.first(),
            grid.last()
        ),
        Err(_) => format!("`{text}` is not a hex id: four digits as printed, like 1203"),
    };
    errors.push(file, None, in_entry(what, message));
    None
}

/// Reads a hex list of a data file: hex ids as printed (`"1203"`) and column runs
/// (`"1203..1208"`: every hex of one column from the first to the second, north to south),
/// each on `grid`, in the order written. Each bad item is left out and pushed to `errors` as
/// [`hex_id`] does.
pub fn hex_list(
    grid: &Grid,
    items: &[String],
    file: &str,
    what: &str,
    errors: &mut DataErrors,
) -> Vec<HexId> {
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        let Some((a, b)) = item.split_once("..") else {
            out.extend(hex_id(grid, item, file, what, errors));
            continue;
        };
        let (Some(a), Some(b)) = (
            hex_id(grid, a, file, what, errors),
            hex_id(grid, b, file, what, errors),
        ) else {
            continue;
        };
        if a.col != b.col || a.row > b.row {
            let message = format!(
                "`{item}` is not a column run: one column, north to south, like 1203..1208"
            );
            errors.push(file, None, in_entry(what, message));
            continue;
        }
        out.extend((a.row..=b.row).map(|row| HexId::new(a.col, row)));
    }
    out
}

/// Reads a hexside of a data file, written as the two hexes it parts (`"1203/1204"`), both
/// on `grid` and adjacent. A problem is pushed to `errors` as [`hex_id`] does.
pub fn hexside(
    grid: &Grid,
    text: &str,
    file: &str,
    what: &str,
    errors: &mut DataErrors,
) -> Option<Hexside> {
    let Some((a, b)) = text.split_once('/') else {
        let message = format!("`{text}` is not a hexside: write its two hexes, like 1203/1204");
        errors.push(file, None, in_entry(what, message));
        return None;
    };
    let a = hex_id(grid, a, file, what, errors);
    let b = hex_id(grid, b, file, what, errors);
    let side = Hexside::between(grid.hex_of(a?)?, grid.hex_of(b?)?);
    if side.is_none() {
        let message = format!("`{text}` is not a hexside: the two hexes are not adjacent");
        errors.push(file, None, in_entry(what, message));
    }
    side
}

#[cfg(test)]
mod tests {
    use hexgrid::{ColumnShove, Layout};

    use super::*;

    /// Columns 01-05, rows 01-04.
    fn grid() -> Grid {
        Grid::new(
            Layout::new(ColumnShove::OddColumnsDown),
            HexId::new(1, 1),
            HexId::new(5, 4),
        )
    }

    fn list(items: &[&str]) -> (Vec<String>, DataErrors) {
        let items: Vec<String> = items.iter().map(|s| s.to_string()).collect();
        let mut errors = DataErrors::default();
        let ids = hex_list(
            &grid(),
            &items,
            "g/map.toml",
            "terrain `woods`",
            &mut errors,
        );
        (ids.iter().map(HexId::to_string).collect(), errors)
    }

    #[test]
    fn a_hex_list_expands_column_runs_in_order() {
        let (ids, errors) = list(&["0302", "0102..0104", " 0501 "]);
        assert!(errors.0.is_empty(), "{errors}");
        assert_eq!(ids, ["0302", "0102", "0103", "0104", "0501"]);
    }

    #[test]
    fn every_bad_item_is_named_with_its_file_and_entry_and_left_out() {
        let (ids, errors) = list(&["0101", "12", "0909", "0103..0201", "0104..0102", "0205"]);
        assert_eq!(ids, ["0101"]);
        let text = errors.to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines,
            [
                "g/map.toml: terrain `woods`: `12` is not a hex id: four digits as printed, like 1203",
                "g/map.toml: terrain `woods`: hex `0909` is off the map (0101 to 0504)",
                "g/map.toml: terrain `woods`: `0103..0201` is not a column run: one column, north to south, like 1203..1208",
                "g/map.toml: terrain `woods`: `0104..0102` is not a column run: one column, north to south, like 1203..1208",
                "g/map.toml: terrain `woods`: hex `0205` is off the map (0101 to 0504)",
            ]
        );
    }

    #[test]
    fn an_entry_left_unnamed_gives_the_problem_alone() {
        let mut errors = DataErrors::default();
        assert_eq!(hex_id(&grid(), "0600", "m.toml", "", &mut errors), None);
        assert_eq!(
            errors.to_string(),
            "m.toml: hex `0600` is off the map (0101 to 0504)"
        );
    }

    #[test]
    fn a_hexside_is_two_adjacent_hexes_of_the_map() {
        let g = grid();
        let mut errors = DataErrors::default();
        let side = hexside(&g, "0202/0203", "m.toml", "river", &mut errors);
        let expected = Hexside::between(
            g.hex_of(HexId::new(2, 2)).unwrap(),
            g.hex_of(HexId::new(2, 3)).unwrap(),
        );
        assert!(expected.is_some());
        assert_eq!(side, expected);
        for bad in ["0202-0203", "0202/0204", "0202/0909"] {
            assert_eq!(hexside(&g, bad, "m.toml", "river", &mut errors), None);
        }
        assert!(errors.0.iter().all(|e| e.file == "m.toml"));
        let text = errors.to_string();
        assert!(
            text.contains("river: `0202-0203` is not a hexside: write its two hexes"),
            "{text}"
        );
        assert!(
            text.contains("river: `0202/0204` is not a hexside: the two hexes are not adjacent"),
            "{text}"
        );
        assert!(text.contains("river: hex `0909` is off the map"), "{text}");
        assert_eq!(errors.0.len(), 3, "{text}");
    }

    #[test]
    fn checks_made_after_parsing_are_given_the_line_of_their_entry() {
        let text = "title = \"x\"\n[[terrain]]\nterrain = \"woods\"\nhexes = [\"0909\"]\n";
        let data = DataSet::from_files([("g/map.toml", text)]);
        let (_, mut errors) = list(&["0909"]);
        errors.locate(&data);
        assert_eq!(errors.0[0].line, Some(3));
        assert!(
            errors
                .to_string()
                .starts_with("g/map.toml:3: terrain `woods`:"),
            "{errors}"
        );
    }

    #[test]
    fn command_line_problems_name_no_data_file() {
        let e = DataErrors::command_line("unknown option `x`; valid: y");
        assert_eq!(
            e.to_string(),
            "(command line): unknown option `x`; valid: y"
        );
    }
}
