//! Every worked example of the Acre rulebook that the chapters built so far cover: 14.23
//! (leaders' morale on one melee), 10.57 (army morale counted once), 14.41 (a wounded
//! leader's return), the Addenda to 8.3 (later engineer points read the repaired column) and
//! the 13.4 closures; with them the foss clearing roll of 13.12 and the secrecy of the
//! tunnels with their re-sampling for searches (13.23).

use acre::bombardment::{check_repair, repair};
use acre::engineering::Tunnels;
use acre::leaders::{
    attack_morale_leader, defence_morale_leader, leader_loss, returns_in, LeaderFate,
};
use acre::map::Nationality;
use acre::melee::{army_morale, die_modifier};
use acre::position::Location;
use acre::rules::Side;
use acre::{Position, Rules};

fn setup() -> (Rules, Position) {
    let r = Rules::load(&acre::builtin_data()).unwrap();
    let p = Position::empty(&r);
    (r, p)
}

fn put(r: &Rules, p: &mut Position, unit: &str, hex: &str) -> usize {
    let u = r.unit(unit).unwrap_or_else(|| panic!("unit {unit}"));
    p.units[u].at = Location::Map(r.map.hex(hex).unwrap());
    u
}

fn put_leader(r: &Rules, p: &mut Position, leader: &str, hex: &str) -> usize {
    let l = r.leader(leader).unwrap();
    p.leaders[l].at = Location::Map(r.map.hex(hex).unwrap());
    l
}

#[test]
fn example_14_23_both_leaders_morale_on_one_melee() {
    // Conrad (morale 3) leads his Bretons against a Moslem army unit whose leader Isa
    // (morale 2) is in command radius; a roll of 4 becomes 5.
    let (r, mut p) = setup();
    let lancer = put(&r, &mut p, "Breton Lancers 1", "0518");
    put_leader(&r, &mut p, "Conrad", "0518");
    let cavalry = put(&r, &mut p, "Isa Cavalry 1", "0419");
    put_leader(&r, &mut p, "Isa", "0320");
    let att = attack_morale_leader(&r, &p, &[lancer], false).expect("Conrad applies");
    let def = defence_morale_leader(&r, &p, cavalry, false).expect("Isa applies");
    assert_eq!(r.leaders[att].morale, 3);
    assert_eq!(r.leaders[def].morale, 2);
    let m = die_modifier(
        Some(r.leaders[att].morale),
        Some(r.leaders[def].morale),
        0,
        0,
    );
    assert_eq!(4 + m, 5);
    // Out of Isa's Command Radius, the defender has no leader's morale (14.22).
    p.leaders[def].at = Location::Map(r.map.hex("0130").unwrap());
    assert_eq!(defence_morale_leader(&r, &p, cavalry, false), None);
}

#[test]
fn no_morale_for_an_attack_by_two_contingents() {
    // 14.21, 14.34: units of two contingents attacking together get no leader's morale.
    let (r, mut p) = setup();
    let a = put(&r, &mut p, "Breton Lancers 1", "0518");
    let b = put(&r, &mut p, "Anjou Men-at-Arms 1", "0419");
    put_leader(&r, &mut p, "Conrad", "0518");
    put_leader(&r, &mut p, "Philippe", "0419");
    assert!(attack_morale_leader(&r, &p, &[a], false).is_some());
    assert_eq!(attack_morale_leader(&r, &p, &[a, b], false), None);
}

#[test]
fn example_10_57_army_morale_counts_once() {
    let (r, mut p) = setup();
    // Moslem +1 (10.51) and -1 (10.52) leave the Moslem level at 0; English and French -1.
    p.morale.moslem = 1 - 1;
    p.morale.crusader.insert(Nationality::English, -1);
    p.morale.crusader.insert(Nationality::French, -1);
    let english = r.unit("English Men-at-Arms 1").unwrap();
    let french = r.unit("Anjou Men-at-Arms 1").unwrap();
    let attacker = army_morale(&r, &p, Side::Crusader, &[english, french]);
    let defender = army_morale(&r, &p, Side::Moslem, &[]);
    assert_eq!(die_modifier(None, None, attacker, defender), -1);
    // "If the Moslem Army Morale Level were -1 and two Moslem units made a melee attack, the
    // die roll would be adjusted by -1, not -2."
    p.morale.moslem = -1;
    let two = [
        r.unit("Taqi Spearmen 1").unwrap(),
        r.unit("Taqi Spearmen 2").unwrap(),
    ];
    let attacker = army_morale(&r, &p, Side::Moslem, &two);
    assert_eq!(die_modifier(None, None, attacker, 0), -1);
    // 10.56: a fallen nationality affects an attack it shares with another.
    p.morale.crusader.remove(&Nationality::French);
    let german = r.unit("German Knights 1").unwrap();
    assert_eq!(army_morale(&r, &p, Side::Crusader, &[english, german]), -1);
    assert_eq!(army_morale(&r, &p, Side::Crusader, &[german]), 0);
}

#[test]
fn example_14_41_a_moslem_leader_wounded_on_turn_two() {
    // Rolls 6/2 on Game-Turn Two: out until the end of Game-Turn Four.
    let fate = leader_loss(Side::Moslem, 2, 6, Some(2));
    assert_eq!(fate, LeaderFate::Wounded { until: 4 });
    assert_eq!(returns_in(4), 5);
    // A Crusader leader is out twice as long; 5 or 6 on the second roll kills; 1-5 first is
    // no harm.
    assert_eq!(
        leader_loss(Side::Crusader, 2, 6, Some(2)),
        LeaderFate::Wounded { until: 6 }
    );
    assert_eq!(
        leader_loss(Side::Crusader, 2, 6, Some(5)),
        LeaderFate::Killed
    );
    assert_eq!(leader_loss(Side::Moslem, 9, 5, None), LeaderFate::Unharmed);
}

#[test]
fn addenda_8_3_later_engineer_points_read_the_repaired_column() {
    let (r, mut p) = setup();
    let wall = r.map.hex("1811").unwrap();
    p.damage.insert(wall, 5);
    // First point at level 5 reads the 5-6 column: a 4 repairs 1 (level 4). The second
    // point reads the 1-4 column: a 5 repairs 2 (level 2). Read at level 5 it would have
    // repaired only 1.
    let steps = repair(&r, &mut p, wall, &[4, 5]);
    assert_eq!(
        steps.iter().map(|s| s.repaired).collect::<Vec<_>>(),
        vec![1, 2]
    );
    assert_eq!(p.damage[&wall], 2);
    // Never below zero; a breach (6) may be repaired (Addenda to 12.2).
    let steps = repair(&r, &mut p, wall, &[6, 6]);
    assert_eq!(steps[1].repaired, 0);
    assert_eq!(p.damage[&wall], 0);
    p.damage.insert(wall, 6);
    repair(&r, &mut p, wall, &[6]);
    assert_eq!(p.damage[&wall], 4);
    // A wall caved in by a tunnel cannot be repaired (13.28).
    p.caved_in.insert(wall);
    assert!(check_repair(&r, &p, &[wall], 1).is_err());
    assert!(check_repair(&r, &p, &[r.map.hex("1809").unwrap(), wall], 1).is_err());
}

fn four_bases(r: &Rules) -> Tunnels {
    let mut t = Tunnels::new(r);
    for b in ["0915", "0907", "0919", "0923"] {
        let h = r.map.hex(b).unwrap();
        t.check_base(r, h).unwrap_or_else(|e| panic!("{b}: {e}"));
        t.build_base(h);
    }
    t
}

fn dig_line(r: &Rules, t: &mut Tunnels, hexes: &[&str]) {
    for h in hexes {
        let h = r.map.hex(h).unwrap();
        t.check_extend(r, 0, h).unwrap();
        assert!(t.dig(r, 0, h, 1));
    }
}

#[test]
fn closures_13_4_three_hexes_on_a_low_roll() {
    let (r, _) = setup();
    let mut t = four_bases(&r);
    let hexes = ["1015", "1115", "1215", "1315", "1415"];
    dig_line(&r, &mut t, &hexes);
    let at = r.map.hex("1215").unwrap();
    let (moslem, crusader, closed) = t.subterranean_combat(&r, at, 2);
    assert_eq!((moslem, crusader), (1, 1));
    let ids: Vec<String> = closed.iter().map(|h| r.map.id(*h)).collect();
    assert_eq!(ids, ["1115", "1215", "1315"]);
    assert_eq!(t.points, 3);
    // What is left: 1015 operative; 1415 cut off and gone (not inoperative, 13.26).
    assert_eq!(t.shafts[0], vec![r.map.hex("1015").unwrap()]);
    let gone = r.map.hex("1415").unwrap();
    assert_eq!(t.operative(gone), None);
    assert!(!t.inoperative.contains(&gone));
    // The tunnel may go on around the closed hexes (13.24), but never into one.
    assert!(t.check_extend(&r, 0, r.map.hex("1115").unwrap()).is_err());
    assert!(t.check_extend(&r, 0, r.map.hex("1114").unwrap()).is_ok());
}

#[test]
fn closures_13_4_one_hex_on_a_high_roll() {
    let (r, _) = setup();
    let mut t = four_bases(&r);
    dig_line(&r, &mut t, &["1015", "1115", "1215", "1315", "1415"]);
    let (moslem, crusader, closed) = t.subterranean_combat(&r, r.map.hex("1215").unwrap(), 5);
    assert_eq!((moslem, crusader), (0, 0));
    assert_eq!(closed, vec![r.map.hex("1215").unwrap()]);
    assert_eq!(t.shafts[0].len(), 2);
    // 13.32: the Crusaders never fall below one Tunnel Point.
    t.points = 1;
    t.subterranean_combat(&r, r.map.hex("1115").unwrap(), 1);
    assert_eq!(t.points, 1);
}

#[test]
fn tunnels_are_single_shafts_struck_by_rock_on_a_six() {
    let (r, mut p) = setup();
    let t = Tunnels::new(&r);
    // 13.22: bases first, in Clear terrain eight or more hexes from the walls.
    assert!(t.check_extend(&r, 0, r.map.hex("1015").unwrap()).is_err());
    assert!(t.check_base(&r, r.map.hex("1215").unwrap()).is_err());
    assert!(
        t.check_base(&r, r.map.hex("0912").unwrap()).is_err(),
        "road, not clear"
    );
    let mut t = four_bases(&r);
    assert!(
        t.check_base(&r, r.map.hex("0917").unwrap()).is_err(),
        "a fifth base"
    );
    dig_line(&r, &mut t, &["1015", "1115"]);
    // 13.27: no branch from an earlier hex, no tight turn back on the shaft.
    assert!(t.check_extend(&r, 0, r.map.hex("1016").unwrap()).is_err());
    // 13.24: a 6 strikes rock: the hex is inoperative for ever.
    let rock = r.map.hex("1215").unwrap();
    t.check_extend(&r, 0, rock).unwrap();
    assert!(!t.dig(&r, 0, rock, 6));
    assert!(t.check_extend(&r, 0, rock).is_err());
    // Round the rock and on into the tower 1812 through the foss 1712.
    for h in [
        "1216", "1315", "1314", "1414", "1513", "1613", "1712", "1812",
    ] {
        let h = r.map.hex(h).unwrap();
        t.check_extend(&r, 0, h)
            .unwrap_or_else(|e| panic!("{}: {e}", r.map.id(h)));
        assert!(t.dig(&r, 0, h, 2));
    }
    // 13.28: undiscovered, it caves in: a permanent breach, and the tunnel is spent.
    let tower = r.map.hex("1812").unwrap();
    let base = t.check_cave_in(&r, tower).unwrap();
    t.cave_in(&mut p, base, tower);
    assert!(p.breached(&r, tower));
    assert!(t.inoperative.contains(&r.map.hex("0915").unwrap()));
    assert!(t.check_cave_in(&r, tower).is_err());
    assert!(
        t.check_extend(&r, 0, r.map.hex("1016").unwrap()).is_err(),
        "13.29"
    );
}

#[test]
fn a_ladder_assault_on_the_prison_tower() {
    use acre::melee::{ladder_needed, odds_column, strengths};
    let (r, mut p) = setup();
    let h = |s: &str| r.map.hex(s).unwrap();
    let garrison = put(&r, &mut p, "Mashtub Spearmen 1", "1810");
    let knights = put(&r, &mut p, "German Knights 1", "1709");
    // From the unfilled foss: no ladders (10.34); filled, ladders (10.31).
    assert!(ladder_needed(&r, &p, knights, h("1810")).is_err());
    p.filled.insert(h("1709"));
    assert_eq!(ladder_needed(&r, &p, knights, h("1810")), Ok(true));
    // 12 with Leopold's 2 against 6 doubled on the tower: 14 to 12 is 1-1.
    put_leader(&r, &mut p, "Leopold", "1709");
    let (a, d) = strengths(&r, &p, &[knights], &[], garrison, false);
    assert_eq!((a, d), (28, 24));
    assert_eq!(odds_column(a, d), Some(1));
    // With a siege tower, no ladders (12.15); breached, none either (8.16), and the
    // defender is still doubled (5.27).
    let st = r
        .siege
        .iter()
        .position(|s| s.name == "Siege Tower 1")
        .unwrap();
    p.siege[st].at = Location::Map(h("1709"));
    assert_eq!(ladder_needed(&r, &p, knights, h("1810")), Ok(false));
    p.siege[st].at = Location::OffMap;
    p.damage.insert(h("1810"), 6);
    assert_eq!(ladder_needed(&r, &p, knights, h("1810")), Ok(false));
    assert_eq!(strengths(&r, &p, &[knights], &[], garrison, false).1, 24);
    // Cavalry never climb (10.36).
    p.damage.clear();
    let cav = put(&r, &mut p, "English Knight Cavalry 1", "1710");
    p.filled.insert(h("1710"));
    assert!(ladder_needed(&r, &p, cav, h("1810")).is_err());
}

#[test]
fn army_morale_changes_10_51_to_10_55() {
    use acre::melee::{army_unit_eliminated, army_unit_entered_acre, leader_killed};
    let (r, mut p) = setup();
    assert!(army_unit_entered_acre(&mut p));
    assert!(!army_unit_entered_acre(&mut p), "only the first time");
    for _ in 0..29 {
        assert!(!army_unit_eliminated(&mut p));
    }
    assert!(army_unit_eliminated(&mut p), "the thirtieth");
    assert_eq!(p.morale.moslem, 0);
    let l = |n: &str| r.leader(n).unwrap();
    assert_eq!(
        leader_killed(&r, &mut p, l("Richard"), false),
        Some(Nationality::English)
    );
    assert_eq!(
        leader_killed(&r, &mut p, l("Leopold"), false),
        Some(Nationality::German)
    );
    assert_eq!(leader_killed(&r, &mut p, l("Walter"), false), None);
    assert_eq!(leader_killed(&r, &mut p, l("Saladin"), false), None);
    // Conrad is a king only with the 16.0 option.
    assert_eq!(leader_killed(&r, &mut p, l("Conrad"), false), None);
    assert_eq!(
        leader_killed(&r, &mut p, l("Conrad"), true),
        Some(Nationality::Jerusalem)
    );
    assert_eq!(p.morale.crusader[&Nationality::English], -1);
}

/// Acre 13.12 with its Addenda: every filled foss hex is rolled for at the end of the
/// Game-Turn; 1-4 clears it, 5-6 leaves it filled. Manual dice make the rolls known.
#[test]
fn filled_foss_is_cleared_on_one_to_four() {
    use acre::engineering::unfill_foss;
    use acre::map::Class;
    let (r, mut p) = setup();
    let foss = r.map.hexes_of(&[Class::Foss]);
    p.filled.extend([foss[0], foss[1], foss[2]]);
    let mut dice = engine::Dice::new(1, engine::DiceMode::Manual);
    dice.begin_action(&[4, 5, 1]).unwrap();
    let events = unfill_foss(&r, &mut p, &mut dice);
    dice.end_action().unwrap();
    assert_eq!(events.len(), 3);
    assert!(events.iter().all(|e| e.case == "Acre 13.12"));
    let mut sorted = [foss[0], foss[1], foss[2]];
    sorted.sort();
    // Rolled in hex order: 4 clears, 5 stays, 1 clears.
    assert!(!p.filled.contains(&sorted[0]));
    assert!(p.filled.contains(&sorted[1]));
    assert!(!p.filled.contains(&sorted[2]));
    assert_eq!(events[1].rolls[0].dice, [5]);
    assert!(
        events[1].text.contains("stays filled"),
        "{}",
        events[1].text
    );
}

/// Acre 13.23: Tunnel hexes stay secret from the Moslem until discovered, closed, caved in
/// or revealed with their base; the bases and the Tunnel Points are seen by both.
#[test]
fn tunnel_hexes_are_secret_until_discovered() {
    let (r, _) = setup();
    let mut t = four_bases(&r);
    let hexes = ["1015", "1115", "1215", "1315", "1415"];
    dig_line(&r, &mut t, &hexes);
    let rock = r.map.hex("1515").unwrap();
    t.check_extend(&r, 0, rock).unwrap();
    assert!(!t.dig(&r, 0, rock, 6));
    let crusader = t.seen_by(Side::Crusader);
    assert_eq!(crusader.operative.len(), 5);
    assert!(crusader.inoperative.contains(&rock));
    let moslem = t.seen_by(Side::Moslem);
    assert!(moslem.operative.is_empty() && moslem.inoperative.is_empty());
    assert_eq!(moslem.bases, crusader.bases);
    assert_eq!(moslem.points, 4);
    let text = serde_json::to_string(&moslem).unwrap();
    for h in hexes.iter().chain(["1515"].iter()) {
        let hex = r.map.hex(h).unwrap();
        assert!(
            !text.contains(&serde_json::to_string(&hex).unwrap()),
            "{h} in {text}"
        );
    }
    // A discovery at 1415 on a 6 closes only that hex (13.4): the Moslem now knows it.
    let found = r.map.hex("1415").unwrap();
    let (_, _, closed) = t.subterranean_combat(&r, found, 6);
    let moslem = t.seen_by(Side::Moslem);
    for h in &closed {
        assert!(moslem.inoperative.contains(h));
    }
    assert!(moslem.inoperative.contains(&found));
    // The rest of the shaft stays hidden.
    assert!(!moslem.operative.contains(&r.map.hex("1015").unwrap()));
    assert!(!moslem.inoperative.contains(&rock));
}

/// Acre 13.23: re-sampling the tunnels for the Moslem's searches keeps everything he sees and
/// draws the hidden shafts afresh as legal single shafts.
#[test]
fn tunnels_resampled_for_the_moslem_keep_what_he_sees() {
    use rand_core::SeedableRng;
    let (r, _) = setup();
    let mut t = four_bases(&r);
    dig_line(&r, &mut t, &["1015", "1115", "1215", "1315", "1415"]);
    let found = r.map.hex("1415").unwrap();
    t.subterranean_combat(&r, found, 6);
    let seen = t.seen_by(Side::Moslem);
    let mut rng = rand_pcg::Pcg64::seed_from_u64(3);
    let mut shafts = std::collections::BTreeSet::new();
    for _ in 0..30 {
        let d = t.determinize(&r, 8, &mut rng);
        assert_eq!(d.seen_by(Side::Moslem), seen);
        for (b, shaft) in d.shafts.iter().enumerate() {
            assert!(shaft.len() <= 8);
            // Each shaft is a legal single shaft: rebuilt hex by hex it passes 13.26-13.27.
            let mut check = d.clone();
            check.shafts[b].clear();
            for &h in shaft {
                check.check_extend(&r, b, h).unwrap();
                check.shafts[b].push(h);
            }
        }
        shafts.insert(d.shafts.clone());
    }
    assert!(shafts.len() > 10, "{}", shafts.len());
}
