//! Every worked example of the rulebook that the Third Crusade uses, as a test.

use engine::{Setup, Startable};
use hexgrid::HexId;
use the_crusades::attrition::{movement_loss, path_aps};
use the_crusades::combat::{coordinated_share, loss_asps, overrun};
use the_crusades::map::{Place, Terrain};
use the_crusades::movement::path_cost;
use the_crusades::naval::differential;
use the_crusades::scenario::Side;
use the_crusades::siege::{assault_ratio, assault_strength, defense_strength};
use the_crusades::tables::Loss;
use the_crusades::State;

fn game() -> State {
    let setup = Setup::seeded("third-crusade", 1);
    State::start(&setup, &the_crusades::builtin_data()).expect("the scenario loads")
}

fn hex(s: &str) -> HexId {
    s.parse().unwrap()
}

fn out(s: &str) -> Place {
    Place::outside(hex(s))
}

/// 6.4.2: a force moving through five variable hexes accumulates 10 APs.
#[test]
fn example_6_4_2_five_variable_hexes_are_10_aps() {
    let g = game();
    let path: Vec<Place> = ["1910", "1911", "1912", "1913", "1914"]
        .iter()
        .map(|h| out(h))
        .collect();
    for p in &path {
        assert_eq!(g.scenario.map.terrain(p.hex), Terrain::Variable);
    }
    assert_eq!(path_aps(&g, &path), 10);
}

/// 6.4.3: 38 Crusader ASPs through one fertile, two barren and two variable hexes gather 11
/// APs and lose 2 ASPs on the 31-40 column of the Crusader line.
#[test]
fn example_6_4_3_thirty_eight_asps_lose_two() {
    let g = game();
    let path: Vec<Place> = ["1618", "1825", "1828", "1722", "1823"]
        .iter()
        .map(|h| out(h))
        .collect();
    let terrains: Vec<Terrain> = path.iter().map(|p| g.scenario.map.terrain(p.hex)).collect();
    assert_eq!(
        terrains,
        [
            Terrain::Fertile,
            Terrain::Barren,
            Terrain::Barren,
            Terrain::Variable,
            Terrain::Variable
        ]
    );
    let aps = path_aps(&g, &path);
    assert_eq!(aps, 11);
    assert_eq!(
        movement_loss(&g, Side::Crusaders, 38, aps, true, true, false).asps,
        2
    );
}

/// 9.0 J: 110 ASPs against 58 read as 1.75 to 1, rounded for the defender.
#[test]
fn example_9_0_j_110_to_58_is_1_75_to_1() {
    let t = &game().scenario.tables;
    assert_eq!(t.ratios[t.ratio_column(110, 58)].name, "1.75-1");
    assert_eq!(t.ratios[t.ratio_column(116, 58)].name, "2-1");
}

/// 9.3.3: a +3 Formation Adjustment moves a Crusader defender from 2-1 to 1-1.
#[test]
fn example_9_3_3_three_columns_from_2_to_1_is_1_to_1() {
    let t = &game().scenario.tables;
    let two = t.ratio_column(2, 1);
    assert_eq!(t.ratios[two - 3].name, "1-1");
}

/// 9.4.2: a roll of 2 brings 2/6 of Acre's 24 ASPs, 8, to Saladin's 75: 83 in all.
#[test]
fn example_9_4_2_coordinated_attack() {
    assert_eq!(coordinated_share(24, 2), 8);
    assert_eq!(75 + coordinated_share(24, 2), 83);
}

/// 9.5 C: 37 ASPs with a 20% loss lose 8; 9.5 E: a 20-ASP force rolling 6 on an asterisk
/// loses 1, a 165-ASP force loses 6.
#[test]
fn example_9_5_c_and_e_losses() {
    assert_eq!(loss_asps(Loss::Percent(20), 37, 0), 8);
    assert_eq!(loss_asps(Loss::Die, 20, 6), 1);
    assert_eq!(loss_asps(Loss::Die, 165, 6), 6);
}

/// 9.8.1: 10-1 overruns the smaller force.
#[test]
fn overrun_at_ten_to_one() {
    assert_eq!(overrun(100, 10), Some(false));
    assert_eq!(overrun(9, 90), Some(true));
    assert_eq!(overrun(99, 10), None);
}

/// 10.1.2: 10 ASPs inside Acre (level 3) have a Siege Defense Strength of 30.
#[test]
fn example_10_1_2_acre_defense_strength() {
    let g = game();
    let acre = g.scenario.map.site_named("Acre").unwrap();
    assert_eq!(g.scenario.map.sites[acre].hex, hex("1619"));
    assert_eq!(defense_strength(10, g.scenario.map.sites[acre].level), 30);
}

/// 10.1.3: a force in 0428 spends 2 MPs to enter Cairo: 0329, then the city.
#[test]
fn example_10_1_3_entering_cairo_costs_two() {
    let g = game();
    let cost = path_cost(&g, out("0428"), &[out("0329"), Place::inside(hex("0329"))]);
    assert_eq!(cost, Ok(2));
}

/// 10.4.1 B, 10.4.3: a partial siege assaults at half strength, and below 3-1 the assault
/// fails without a roll.
#[test]
fn partial_siege_and_automatic_failure() {
    let t = &game().scenario.tables;
    assert_eq!(assault_strength(55, false), 28);
    assert_eq!(
        assault_ratio(assault_strength(55, true), defense_strength(18, 3)),
        1
    );
    assert_eq!(t.assault_success_from(2), None);
    assert!(t.assault_success_from(3).is_some());
}

/// 10.5.4: besieging Tyre (fertile), a roll of 1 loses nothing but worsens the level: the
/// next roll uses the Variable column.
#[test]
fn example_10_5_4_tyre_worsens_to_variable() {
    let mut g = game();
    assert_eq!(g.scenario.map.terrain(hex("1618")), Terrain::Fertile);
    assert_eq!(
        g.scenario.tables.siege_attrition(Some(Terrain::Fertile), 1),
        (0, true)
    );
    let tyre = g.scenario.map.site_named("Tyre").unwrap();
    g.sites[tyre].worse = 1;
    assert_eq!(
        the_crusades::attrition::level(&g, hex("1618")),
        Terrain::Variable
    );
}

/// 17.4.3 (a First Crusade example of the same table): a roll of 4 on the City column is 2.
#[test]
fn example_17_4_3_city_column_four_is_two() {
    assert_eq!(game().scenario.tables.siege_attrition(None, 4), (2, false));
}

/// 12.4.2: 12 NSPs attacking 9 make a differential of 3; 12.4.3: 4 against 1 make 5.
#[test]
fn example_12_4_2_and_12_4_3_differentials() {
    assert_eq!(differential(12, 9), 3);
    assert_eq!(differential(4, 1), 5);
    assert_eq!(differential(4, 2), 3);
}

/// 14.3.2: a die above the target's Combat Rating kills him; the Crusaders subtract 2.
#[test]
fn assassination_roll() {
    use the_crusades::events::succeeds;
    assert!(succeeds(Side::Saracens, 4, 3));
    assert!(!succeeds(Side::Saracens, 3, 3));
    assert!(succeeds(Side::Crusaders, 6, 3));
    assert!(!succeeds(Side::Crusaders, 5, 3));
}

/// 6.3.2: Tyre is 1618 and holds Conrad and Balian inside at the start (16.2.1), with the
/// French outside in the same hex.
#[test]
fn deployment_16_2_inside_and_outside_tyre() {
    let g = game();
    let conrad = g.scenario.leader("conrad").unwrap();
    let philip = g.scenario.leader("philip-france").unwrap();
    assert_eq!(g.leaders[conrad].place, Some(Place::inside(hex("1618"))));
    assert_eq!(g.leaders[philip].place, Some(out("1618")));
    assert_eq!(g.asps_at(Side::Crusaders, Place::inside(hex("1618"))), 9);
    assert_eq!(g.asps_at(Side::Crusaders, out("1618")), 23);
    assert_eq!(g.asps_at(Side::Crusaders, out("1619")), 55);
    assert_eq!(g.asps_at(Side::Saracens, Place::inside(hex("1619"))), 18);
}

/// The errata's impassable hexsides and the rain rule for rivers (6.1.1 E, 13.1 C).
#[test]
fn impassable_hexsides_and_rivers() {
    let g = game();
    let m = &g.scenario.map;
    assert!(!m.land_crossing(hex("1820"), hex("1920"), false));
    assert!(!m.land_crossing(hex("1818"), hex("1919"), false));
    assert!(m.land_crossing(hex("1819"), hex("1919"), false));
    assert!(m.land_crossing(hex("1821"), hex("1921"), false));
    assert!(!m.land_crossing(hex("1821"), hex("1921"), true));
    assert_eq!(path_cost(&g, out("1821"), &[out("1921")]), Ok(2));
}
