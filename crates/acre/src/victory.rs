//! Victory (18.0): the Crusaders win with ten combat units and a leader in the streets of
//! Acre, or Saladin dead; the Moslems with twelve camp hexes, Richard and Philippe both dead,
//! or the sixteenth Game-Turn passed; both at once is a draw.

use serde::{Deserialize, Serialize};

use crate::map::Class;
use crate::position::Location;
use crate::rules::{Rules, Side};
use crate::Position;

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    /// One side won, for these reasons.
    Win(Side, Vec<String>),
    /// 18.3: opposing conditions met at once.
    Draw(Vec<String>),
}

fn dead(rules: &Rules, pos: &Position, name: &str) -> bool {
    rules.leader(name).is_some_and(|l| pos.leaders[l].dead)
}

/// Acre 18.1, 18.2, 18.3: the verdict at the end of an Assault Phase, if any. Acre's hexes
/// here are its streets: "not including Wall or Tower hexes".
pub fn at_end_of_assault(rules: &Rules, pos: &Position) -> Option<Verdict> {
    let v = &rules.scenario.victory;
    let in_streets = |h: hexgrid::Hex| rules.map.class(h) == Class::Street;
    let mut crusader = Vec::new();
    let units = (0..rules.units.len())
        .filter(|&u| rules.side_of(u) == Side::Crusader)
        .filter(|&u| pos.units[u].at.hex().is_some_and(in_streets))
        .count() as u32;
    let leaders = (0..rules.leaders.len())
        .filter(|&l| rules.leaders[l].side == Side::Crusader && !pos.leaders[l].dead)
        .filter(|&l| matches!(pos.leaders[l].at, Location::Map(h) if in_streets(h)))
        .count() as u32;
    if units >= v.crusader_units_in_acre && leaders >= v.crusader_leaders_in_acre {
        crusader.push(format!(
            "{units} Crusader combat units and {leaders} leaders hold Acre (18.1)"
        ));
    }
    if dead(rules, pos, "Saladin") {
        crusader.push("Saladin has been killed (18.1)".to_string());
    }
    let mut moslem = Vec::new();
    let camps = rules
        .map
        .camps()
        .filter(|(h, _)| pos.side_at(rules, *h) == Some(Side::Moslem))
        .count() as u32;
    if camps >= v.moslem_camp_hexes {
        moslem.push(format!(
            "Moslem units hold {camps} Crusader camp hexes (18.2)"
        ));
    }
    if dead(rules, pos, "Richard") && dead(rules, pos, "Philippe") {
        moslem.push("King Richard and King Philippe have both been killed (18.2)".to_string());
    }
    match (crusader.is_empty(), moslem.is_empty()) {
        (true, true) => None,
        (false, true) => Some(Verdict::Win(Side::Crusader, crusader)),
        (true, false) => Some(Verdict::Win(Side::Moslem, moslem)),
        (false, false) => Some(Verdict::Draw(crusader.into_iter().chain(moslem).collect())),
    }
}

/// Acre 4.0, 18.2: after the last Game-Turn without a Crusader victory, the Moslems win.
pub fn at_end_of_turn(rules: &Rules, turn: u8) -> Option<Verdict> {
    (turn >= rules.scenario.turns).then(|| {
        Verdict::Win(
            Side::Moslem,
            vec![format!(
                "the Crusaders have not won by Game-Turn {} (18.2)",
                rules.scenario.turns
            )],
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_units_and_a_leader_in_the_streets() {
        let r = Rules::load(&crate::builtin_data()).unwrap();
        let mut p = Position::empty(&r);
        let crusaders: Vec<usize> = (0..r.units.len())
            .filter(|&u| r.side_of(u) == Side::Crusader)
            .collect();
        let streets = r.map.hexes_of(&[Class::Street]);
        for (u, h) in crusaders.iter().take(10).zip(&streets) {
            p.units[*u].at = Location::Map(*h);
        }
        assert_eq!(at_end_of_assault(&r, &p), None, "no leader yet");
        let richard = r.leader("Richard").unwrap();
        p.leaders[richard].at = Location::Map(r.map.hex("1811").unwrap());
        assert_eq!(
            at_end_of_assault(&r, &p),
            None,
            "a wall hex is not in the streets"
        );
        p.leaders[richard].at = Location::Map(streets[0]);
        assert!(matches!(
            at_end_of_assault(&r, &p),
            Some(Verdict::Win(Side::Crusader, _))
        ));
        // Both kings dead as well: a draw (18.3).
        p.leaders[r.leader("Philippe").unwrap()].dead = true;
        p.leaders[richard].dead = true;
        p.leaders[r.leader("Guy").unwrap()].at = Location::Map(streets[1]);
        assert!(matches!(at_end_of_assault(&r, &p), Some(Verdict::Draw(_))));
        assert!(at_end_of_turn(&r, 15).is_none());
        assert!(matches!(
            at_end_of_turn(&r, 16),
            Some(Verdict::Win(Side::Moslem, _))
        ));
    }

    #[test]
    fn twelve_camp_hexes() {
        let r = Rules::load(&crate::builtin_data()).unwrap();
        let mut p = Position::empty(&r);
        let moslems: Vec<usize> = (0..r.units.len())
            .filter(|&u| r.side_of(u) == Side::Moslem)
            .collect();
        let camps: Vec<_> = r.map.camps().map(|(h, _)| h).collect();
        for (u, h) in moslems.iter().take(11).zip(&camps) {
            p.units[*u].at = Location::Map(*h);
        }
        assert_eq!(at_end_of_assault(&r, &p), None);
        p.units[moslems[11]].at = Location::Map(camps[11]);
        assert!(matches!(
            at_end_of_assault(&r, &p),
            Some(Verdict::Win(Side::Moslem, _))
        ));
    }
}
