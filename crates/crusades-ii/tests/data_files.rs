//! Every data file of Crusades II parses into its plain struct (unknown fields are errors).

use crusades_ii::data::{CountersFile, MapFile, ScenarioFile, TablesFile};

#[test]
fn data_files_parse() {
    let data = crusades_ii::builtin_data();
    let mut problems = Vec::new();
    if let Err(e) = data.parse::<TablesFile>("crusades-ii/tables.toml") {
        problems.push(e.to_string());
    }
    for battle in ["hattin", "hab", "nicopolis", "tannenburg"] {
        let base = format!("crusades-ii/{battle}");
        if let Err(e) = data.parse::<MapFile>(&format!("{base}/map.toml")) {
            problems.push(e.to_string());
        }
        if let Err(e) = data.parse::<CountersFile>(&format!("{base}/counters.toml")) {
            problems.push(e.to_string());
        }
        if let Err(e) = data.parse::<ScenarioFile>(&format!("{base}/scenario.toml")) {
            problems.push(e.to_string());
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A value that parses but is wrong is reported with its file, its line and the valid values.
#[test]
fn a_wrong_value_names_file_line_and_the_valid_values() {
    let data = crusades_ii::builtin_data();
    let path = "crusades-ii/hattin/map.toml";
    let text = data.text(path).unwrap().to_string();
    let at = text.find("terrain = \"woods\"").expect("Hattin has woods");
    let line = text[..at].lines().count() + 1;
    let bad = text.replacen("terrain = \"woods\"", "terrain = \"forest\"", 1);
    let dir = tempfile_dir();
    std::fs::create_dir_all(dir.join("crusades-ii/hattin")).unwrap();
    std::fs::write(dir.join(path), bad).unwrap();
    let mut data = crusades_ii::builtin_data();
    data.override_from(&dir).unwrap();
    let e = crusades_ii::scenario::load(&data, "hattin")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(&format!(
            "{path}:{line}: unknown terrain `forest`; valid: clear, woods"
        )),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("crusades-data-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}
