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
