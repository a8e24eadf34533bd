//! The built-in Acre data loads, fits every fact the rulebook prints about the map, and bad
//! data is rejected with messages naming file, line and what is wrong.

use acre::map::{Class, Nationality};
use acre::rules::{audit, CombatResult, Rules, Side, MAP, TABLES};
use engine::{DataSet, Source};

fn rules() -> Rules {
    Rules::load(&acre::builtin_data()).expect("built-in data loads")
}

fn with_file(path: &str, text: &str) -> DataSet {
    let base = acre::builtin_data();
    let mut files: Vec<(String, String)> = base
        .paths_under("acre/")
        .map(|p| (p.to_string(), base.text(p).unwrap().to_string()))
        .collect();
    for f in &mut files {
        if f.0 == path {
            f.1 = text.to_string();
        }
    }
    DataSet::from_files(files.iter().map(|(p, t)| (p.as_str(), t.as_str())))
}

#[test]
fn the_south_entry_is_exactly_the_land_of_the_south_edge() {
    // 7.21: "along the south map edge on hexes 0101 to 0701 inclusive".
    let r = rules();
    let m = &r.map;
    let south: Vec<String> = m
        .grid
        .hexes()
        .filter(|h| m.id(*h).ends_with("01") && m.class(*h) != Class::Sea)
        .map(|h| m.id(h))
        .collect();
    let entry: Vec<String> = m.area("south_entry").iter().map(|h| m.id(*h)).collect();
    assert_eq!(south, entry);
    assert_eq!(entry.first().map(String::as_str), Some("0101"));
    assert_eq!(entry.last().map(String::as_str), Some("0701"));
}

#[test]
fn the_named_towers_stand_where_the_data_puts_them() {
    let r = rules();
    let m = &r.map;
    // Addenda to 17.0: the harbour tower is 2104.
    assert_eq!(m.class(m.hex("2104").unwrap()), Class::Tower);
    for (name, fire) in [
        ("Accursed Tower", -2),
        ("Prison Tower", -2),
        ("Castle Tower", -3),
    ] {
        let hexes: Vec<_> = m
            .grid
            .hexes()
            .filter(|h| m.terrain(*h).name == name)
            .collect();
        assert_eq!(hexes.len(), 1, "{name}");
        assert_eq!(m.terrain(hexes[0]).effects.fire, fire, "9.5 {name}");
    }
}

#[test]
fn the_city_is_sealed_by_foss_and_walls() {
    // Nothing outside reaches the streets of Acre without crossing the foss and the walls.
    let r = rules();
    let m = &r.map;
    let mut seen = std::collections::BTreeSet::new();
    let mut stack: Vec<_> = m.area("east_edge").to_vec();
    while let Some(h) = stack.pop() {
        if !seen.insert(h) {
            continue;
        }
        for n in m.neighbours(h) {
            if !matches!(
                m.class(n),
                Class::Sea | Class::Foss | Class::Wall | Class::Tower
            ) {
                stack.push(n);
            }
        }
    }
    assert!(seen.iter().all(|h| m.class(*h) != Class::Street));
    // And the outerworks seal the camps from the edges.
    let mut outside = std::collections::BTreeSet::new();
    let mut stack: Vec<_> = m.area("east_edge").to_vec();
    while let Some(h) = stack.pop() {
        if !outside.insert(h) {
            continue;
        }
        for n in m.neighbours(h) {
            if !matches!(m.class(n), Class::Sea | Class::Outerworks) {
                stack.push(n);
            }
        }
    }
    assert!(m.camps().all(|(h, _)| !outside.contains(&h)));
}

#[test]
fn camps_lie_between_outerworks_and_foss_beyond_set_up_distance() {
    let r = rules();
    let m = &r.map;
    let between = m.between_outerworks_and_foss();
    let mut count = 0;
    for (h, _) in m.camps() {
        count += 1;
        assert!(between.contains(&h), "camp {} between", m.id(h));
        assert!(m.distance_to(h, &[Class::Foss]).unwrap() > r.scenario.setup_distance);
    }
    // 18.2 needs 12 camp hexes to be reachable: there must be more than 12.
    assert!(count > r.scenario.victory.moslem_camp_hexes as usize);
    for n in [
        Nationality::French,
        Nationality::English,
        Nationality::Jerusalem,
        Nationality::German,
    ] {
        assert!(m.camps().any(|(_, c)| c == n), "{n:?} camp");
    }
}

#[test]
fn counters_match_the_printed_ratings_and_orders_of_battle() {
    let r = rules();
    let rating = |n: &str| {
        let l = &r.leaders[r.leader(n).unwrap()];
        [l.morale, l.bonus, l.radius, l.movement]
    };
    assert_eq!(rating("Saladin"), [5, 4, 4, 9]);
    assert_eq!(rating("Guy"), [0, 1, 2, 7]);
    assert_eq!(rating("Conrad"), [3, 3, 3, 7]);
    assert_eq!(rating("Zain"), [3, 2, 3, 9]);
    // 11.2: German 12-4 knights, at least two to make a pair.
    let german: Vec<_> = (0..r.units.len())
        .filter(|&u| r.unit_type(u).german_knight)
        .collect();
    assert!(german.len() >= 2);
    assert!(german
        .iter()
        .all(|&u| r.units[u].melee == 12 && r.units[u].movement == 4));
    // Every leader of 17.0 leads a contingent of his side.
    for c in &r.contingents {
        assert_eq!(r.leaders[c.leader].side, c.side);
    }
    assert_eq!(r.leaders[r.leader("Mashtub").unwrap()].side, Side::Moslem);
    // 10.52: thirty army losses must be possible.
    let army = (0..r.units.len())
        .filter(|&u| {
            r.side_of(u) == Side::Moslem
                && r.contingent_of(u).army != Some(acre::rules::Army::Garrison)
        })
        .count();
    assert!(army >= 30);
}

#[test]
fn printed_table_cells_are_as_printed() {
    let t = rules().tables;
    assert_eq!(t.bombardment, [0, 0, 1, 1, 2, 3]);
    assert_eq!(t.repair_low, [0, 1, 1, 1, 2, 2]);
    assert_eq!(t.repair_high, [0, 0, 0, 1, 1, 2]);
    assert_eq!(t.range["crossbow"], [Some(4), Some(3), Some(2), Some(1)]);
    assert_eq!(t.range["small_catapult"], [None, None, Some(2), Some(2)]);
    assert_eq!(t.fire.get(4, 3), CombatResult::Retreat);
    assert_eq!(t.fire.get(2, 0), CombatResult::NoEffect);
    assert_eq!(t.melee.get(1, 7), CombatResult::Retreat);
    assert_eq!(t.melee.get(3, 3), CombatResult::Disrupted);
    // 10.8 note: modified rolls above 6 read 6, below 1 read 1.
    assert_eq!(t.melee.get(9, 0), t.melee.get(6, 0));
    assert_eq!(t.melee.get(-3, 7), t.melee.get(1, 7));
}

#[test]
fn audit_lists_every_reconstructed_value_with_a_reason() {
    let entries = audit(&acre::builtin_data()).unwrap();
    let recon: Vec<_> = entries
        .iter()
        .filter(|e| e.source == Source::Reconstructed)
        .collect();
    assert!(recon.iter().all(|e| !e.reason.trim().is_empty()));
    for item in [
        "9.4 Horse Archers row",
        "9.5 row 6",
        "10.8 row 3 (first 4 cells printed)",
        "10.8 row 4",
    ] {
        assert!(
            recon.iter().any(|e| e.item == item),
            "{item} listed as reconstructed"
        );
    }
    assert!(entries
        .iter()
        .any(|e| e.item == "leader Saladin" && e.source == Source::Printed));
}

#[test]
fn an_unknown_field_is_named_with_its_line() {
    let text = acre::builtin_data()
        .text(MAP)
        .unwrap()
        .replace("title =", "colour = \"red\"\ntitle =");
    let err = Rules::load(&with_file(MAP, &text)).unwrap_err().to_string();
    assert!(err.contains("acre/map.toml:"), "{err}");
    assert!(err.contains("unknown field `colour`"), "{err}");
}

#[test]
fn content_errors_are_all_reported_together() {
    let text = acre::builtin_data()
        .text(MAP)
        .unwrap()
        .replace("terrain = \"marsh\"", "terrain = \"bog\"")
        .replace("\"2104/2105\"", "\"2104/2107\"");
    let err = Rules::load(&with_file(MAP, &text)).unwrap_err().to_string();
    assert!(err.contains("terrain `bog` is not one of"), "{err}");
    assert!(err.contains("`2104/2107` is not a hexside"), "{err}");
}

#[test]
fn a_table_that_gets_weaker_with_better_odds_is_refused() {
    let text = acre::builtin_data().text(TABLES).unwrap().replace(
        "results = [\"D\", \"R\", \"R\", \"E\", \"E\", \"E\", \"E\", \"E\"]",
        "results = [\"D\", \"R\", \"-\", \"E\", \"E\", \"E\", \"E\", \"E\"]",
    );
    let err = Rules::load(&with_file(TABLES, &text))
        .unwrap_err()
        .to_string();
    assert!(err.contains("melee row 6: column `2-1` is weaker"), "{err}");
}

#[test]
fn a_reconstructed_value_without_reason_is_refused() {
    let text = acre::builtin_data().text(TABLES).unwrap().replace(
        "reason = \"row lost: each result moves one or two columns left per row as rows 1-3 do, monotone in roll and in odds\"",
        "reason = \"\"",
    );
    let err = Rules::load(&with_file(TABLES, &text))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("melee row 4: a reconstructed value must give its reason"),
        "{err}"
    );
}

#[test]
fn siege_towers_need_a_movement_allowance_and_only_they_have_one() {
    use acre::rules::{SiegeKind, COUNTERS};
    let r = rules();
    for s in &r.siege {
        let tower = s.kind == SiegeKind::SiegeTower;
        assert_eq!(s.movement > 0, tower, "{}: 12.11", s.name);
    }
    let text = acre::builtin_data()
        .text(COUNTERS)
        .unwrap()
        .replacen(
            "kind = \"siege_tower\"\nmovement = 2",
            "kind = \"siege_tower\"",
            1,
        )
        .replacen(
            "kind = \"ballista\"",
            "kind = \"ballista\"\nmovement = 3",
            1,
        );
    let err = Rules::load(&with_file(COUNTERS, &text))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("`Siege Tower 1`: a siege tower needs a `movement`"),
        "{err}"
    );
    assert!(err.contains("only siege towers have a `movement`"), "{err}");
}
