//! The data files load, every reconstructed value gives its reason, and bad data is reported
//! with the file, line and what is wrong, never a panic.

use engine::{DataSet, Source};
use the_crusades::scenario::Scenario;

#[test]
fn built_in_data_loads_and_is_audited() {
    let data = the_crusades::builtin_data();
    let audit = the_crusades::audit(&data).expect("the built-in data is good");
    assert!(audit.iter().any(|e| e.source == Source::Printed));
    assert!(audit
        .iter()
        .any(|e| e.item == "Combat Results Table" && e.source == Source::Reconstructed));
    assert!(audit
        .iter()
        .all(|e| e.source == Source::Printed || !e.reason.trim().is_empty()));
}

#[test]
fn every_hex_the_rules_name_is_in_place() {
    let s = Scenario::load(&the_crusades::builtin_data(), "third-crusade").unwrap();
    for (name, hex) in [
        ("Acre", "1619"),
        ("Tyre", "1618"),
        ("Jerusalem", "1823"),
        ("Cairo", "0329"),
        ("Antioch", "1908"),
        ("Damascus", "2118"),
        ("Aleppo", "2407"),
        ("Famagusta", "1212"),
        ("Philomelium", "0101"),
        ("Jaffa", "1523"),
        ("Ascalon", "1524"),
        ("Damietta", "0625"),
        ("Nablus", "1722"),
        ("Beaufort", "1817"),
        ("al-Marqab", "1811"),
        ("Krak de Montreal", "1826"),
        ("Krak des Chevaliers", "2113"),
        ("Tripoli", "1814"),
        ("Adalia", "0106"),
        ("Tarsus", "1507"),
    ] {
        let i = s
            .map
            .site_named(name)
            .unwrap_or_else(|| panic!("{name} is on the map"));
        assert_eq!(s.map.sites[i].hex.to_string(), hex, "{name}");
    }
    assert_eq!(s.turns.len(), 33, "April II 1191 to August II 1192");
    assert!(s.turns.iter().filter(|t| t.rain).count() == 3);
}

fn with_replaced(path: &str, from: &str, to: &str) -> DataSet {
    let base = the_crusades::builtin_data();
    let files: Vec<(String, String)> = base
        .paths_under("the-crusades/")
        .map(|p| {
            let t = base.text(p).unwrap().to_string();
            let t = if p == path {
                t.replacen(from, to, 1)
            } else {
                t
            };
            (p.to_string(), t)
        })
        .collect();
    DataSet::from_files(files.iter().map(|(p, t)| (p.as_str(), t.as_str())))
}

#[test]
fn bad_data_is_reported_with_file_and_line() {
    let data = with_replaced(
        "the-crusades/map.toml",
        "feature = \"river\"",
        "feature = \"canal\"",
    );
    let e = Scenario::load(&data, "third-crusade")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("the-crusades/map.toml") && e.contains("canal"),
        "{e}"
    );

    let data = with_replaced(
        "the-crusades/tables.toml",
        "fertile = 1",
        "fertile = 1\ncolour = 2",
    );
    let e = Scenario::load(&data, "third-crusade")
        .unwrap_err()
        .to_string();
    assert!(e.contains("tables.toml:") && e.contains("colour"), "{e}");

    let data = with_replaced(
        "the-crusades/third-crusade.toml",
        "leaders = [\"conrad\", \"balian\"]",
        "leaders = [\"conrad\", \"balian\", \"lancelot\"]",
    );
    let e = Scenario::load(&data, "third-crusade")
        .unwrap_err()
        .to_string();
    assert!(e.contains("lancelot"), "{e}");

    let data = with_replaced(
        "the-crusades/map.toml",
        "provenance = { source = \"reconstructed\", reason = \"the crest of the Taurus",
        "provenance = { source = \"reconstructed\", reason = \"\" }\n#",
    );
    let e = Scenario::load(&data, "third-crusade")
        .unwrap_err()
        .to_string();
    assert!(e.contains("reason"), "{e}");
}
