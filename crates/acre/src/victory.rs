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

/// Acre 18.1: Crusader combat units and living leaders in the streets of Acre ("not
/// including Wall or Tower hexes").
fn crusaders_in_streets(rules: &Rules, pos: &Position) -> (u32, u32) {
    let in_streets = |h: hexgrid::Hex| rules.map.class(h) == Class::Street;
    let units = (0..rules.units.len())
        .filter(|&u| rules.side_of(u) == Side::Crusader)
        .filter(|&u| pos.units[u].at.hex().is_some_and(in_streets))
        .count() as u32;
    let leaders = (0..rules.leaders.len())
        .filter(|&l| rules.leaders[l].side == Side::Crusader && !pos.leaders[l].dead)
        .filter(|&l| matches!(pos.leaders[l].at, Location::Map(h) if in_streets(h)))
        .count() as u32;
    (units, leaders)
}

/// Acre 18.2: Crusader camp hexes held by Moslem units. A hex is held by the side of the
/// combat unit there ([`Position::side_at`]: the first found, 5.5 allowing one), so the units
/// are gone through once, each camp hex counted at its first.
fn camps_held(rules: &Rules, pos: &Position) -> u32 {
    let mut seen: Vec<hexgrid::Hex> = Vec::new();
    let mut held = 0;
    for (u, unit) in pos.units.iter().enumerate() {
        let Location::Map(h) = unit.at else { continue };
        if rules.map.camp(h).is_none() || seen.contains(&h) {
            continue;
        }
        seen.push(h);
        held += u32::from(rules.side_of(u) == Side::Moslem);
    }
    held
}

/// Acre 18.1, 18.2, 18.3: the verdict at the end of an Assault Phase, if any. Acre's hexes
/// here are its streets: "not including Wall or Tower hexes".
pub fn at_end_of_assault(rules: &Rules, pos: &Position) -> Option<Verdict> {
    let v = &rules.scenario.victory;
    let mut crusader = Vec::new();
    let (units, leaders) = crusaders_in_streets(rules, pos);
    if units >= v.crusader_units_in_acre && leaders >= v.crusader_leaders_in_acre {
        crusader.push(format!(
            "{units} Crusader combat units and {leaders} leaders hold Acre (18.1)"
        ));
    }
    if dead(rules, pos, "Saladin") {
        crusader.push("Saladin has been killed (18.1)".to_string());
    }
    let mut moslem = Vec::new();
    let camps = camps_held(rules, pos);
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

/// The weights of [`prospects`]: what each step towards a victory condition is worth to the
/// Crusaders' chance, in log-odds. Weights of the AI's judgement, not of the rules.
mod weight {
    /// The Crusaders' log-odds with nothing achieved on either side on the first Game-Turn:
    /// a relief army and sixteen Game-Turns against them.
    pub const START: f64 = -1.0;
    /// Their combat units in the streets, as a share of those 18.1 asks for.
    pub const IN_STREETS: f64 = 3.0;
    /// A living leader of theirs in the streets (18.1).
    pub const LEADER_IN_STREETS: f64 = 0.5;
    /// Each breach in the walls (8.14, 13.28), up to [`BREACHES`].
    pub const BREACH: f64 = 0.5;
    /// The breaches that count: enough to pour through.
    pub const BREACHES: u32 = 3;
    /// The most damaged unbreached Wall or Tower hex, as a share of the breach level.
    pub const DAMAGE: f64 = 0.4;
    /// Camp hexes held by the Moslems, as a share of those 18.2 asks for.
    pub const CAMPS: f64 = -3.0;
    /// Each king dead (18.2 asks for both).
    pub const KING_DEAD: f64 = -1.0;
    /// The share of the Moslem combat units out of play (regrouping or destroyed) less the
    /// share of the Crusaders'.
    pub const ATTRITION: f64 = 2.0;
    /// Each level of Army Morale (10.5), the Moslems' less the Crusader nationalities' mean.
    pub const MORALE: f64 = -0.3;
    /// The share of the Game-Turns gone: time is on the Moslems' side (18.2).
    pub const TIME: f64 = -2.0;
}

/// The Crusaders' chance of winning as the siege stands, for searches cut short
/// ([`engine::Game::evaluate`]): a logistic of how far each side has come towards its
/// victory conditions (18.1: units and a leader in the streets, the breaches that let them
/// in; 18.2: camp hexes held, kings dead, time), the combat units each has lost to the
/// Regrouping Box or for good (9.27, 11.2) and the Army Morale Levels (10.5), weighted by
/// [`weight`]. `turn` is the Game-Turn in play. Reads only what both players see.
pub fn prospects(rules: &Rules, pos: &Position, turn: u8) -> f64 {
    let v = &rules.scenario.victory;
    let (units, leaders) = crusaders_in_streets(rules, pos);
    let in_streets =
        f64::from(units.min(v.crusader_units_in_acre)) / f64::from(v.crusader_units_in_acre.max(1));
    let level = f64::from(rules.tables.breach_level.max(1));
    let (mut breaches, mut damage) = (0u32, 0.0f64);
    for &h in rules.map.walls_and_towers() {
        if pos.breached(rules, h) {
            breaches += 1;
        } else {
            let d = f64::from(pos.damage.get(&h).copied().unwrap_or(0)) / level;
            damage = damage.max(d);
        }
    }
    let camps = f64::from(camps_held(rules, pos).min(v.moslem_camp_hexes))
        / f64::from(v.moslem_camp_hexes.max(1));
    let kings = ["Richard", "Philippe"]
        .iter()
        .filter(|k| dead(rules, pos, k))
        .count() as f64;
    let out_of_play = |side: Side| {
        let (mut all, mut out) = (0u32, 0u32);
        for u in (0..rules.units.len()).filter(|&u| rules.side_of(u) == side) {
            all += 1;
            out += u32::from(matches!(
                pos.units[u].at,
                Location::Regrouping | Location::Destroyed
            ));
        }
        f64::from(out) / f64::from(all.max(1))
    };
    let crusader_morale = if pos.morale.crusader.is_empty() {
        0.0
    } else {
        pos.morale
            .crusader
            .values()
            .map(|&m| f64::from(m))
            .sum::<f64>()
            / pos.morale.crusader.len() as f64
    };
    let time = f64::from(turn.saturating_sub(1)) / f64::from(rules.scenario.turns.max(1));
    let x = weight::START
        + weight::IN_STREETS * in_streets
        + weight::LEADER_IN_STREETS * f64::from(u8::from(leaders > 0))
        + weight::BREACH * f64::from(breaches.min(weight::BREACHES))
        + weight::DAMAGE * damage
        + weight::CAMPS * camps
        + weight::KING_DEAD * kings
        + weight::ATTRITION * (out_of_play(Side::Moslem) - out_of_play(Side::Crusader))
        + weight::MORALE * (f64::from(pos.morale.moslem) - crusader_morale)
        + weight::TIME * time;
    1.0 / (1.0 + (-x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The camp hexes held, counted unit by unit, are those whose combat unit
    /// ([`Position::side_at`]) is Moslem: with units on camp hexes and off them, and a
    /// Moslem and a Crusader unit in one camp hex.
    #[test]
    fn the_camps_held_are_counted_as_the_hexes_say() {
        let r = &Rules::load(&crate::builtin_data()).unwrap();
        let plain = |p: &Position| {
            r.map
                .camps()
                .filter(|(h, _)| p.side_at(r, *h) == Some(Side::Moslem))
                .count() as u32
        };
        let of = move |side: Side| (0..r.units.len()).filter(move |&u| r.side_of(u) == side);
        let camps: Vec<_> = r.map.camps().map(|(h, _)| h).collect();
        let mut p = Position::empty(r);
        assert_eq!(camps_held(r, &p), 0);
        let moslems: Vec<usize> = of(Side::Moslem).take(6).collect();
        for (k, &u) in moslems.iter().enumerate() {
            p.units[u].at = Location::Map(camps[k]);
        }
        let streets = r.map.hexes_of(&[Class::Street]);
        p.units[of(Side::Moslem).nth(7).unwrap()].at = Location::Map(streets[0]);
        assert_eq!((camps_held(r, &p), plain(&p)), (6, 6));
        for (k, u) in of(Side::Crusader).take(4).enumerate() {
            p.units[u].at = Location::Map(camps[5 + k]);
        }
        assert_eq!(camps_held(r, &p), plain(&p));
        assert!(plain(&p) < 6, "a camp hex shared with a Crusader unit");
    }

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
    fn prospects_follow_the_road_to_each_victory() {
        let r = Rules::load(&crate::builtin_data()).unwrap();
        let p = Position::empty(&r);
        let start = prospects(&r, &p, 1);
        assert!(start > 0.0 && start < 0.5, "{start}");
        assert!(
            prospects(&r, &p, 12) < start,
            "time is on the Moslems' side"
        );
        // A wall hex battered, then breached.
        let wall = r.map.hex("1811").unwrap();
        assert!(r.map.is_wall_or_tower(wall));
        let mut battered = p.clone();
        battered.damage.insert(wall, r.tables.breach_level - 1);
        let mut breached = p.clone();
        breached.damage.insert(wall, r.tables.breach_level);
        assert!(start < prospects(&r, &battered, 1));
        assert!(prospects(&r, &battered, 1) < prospects(&r, &breached, 1));
        // Crusaders in the streets.
        let mut inside = p.clone();
        let crusader = (0..r.units.len())
            .find(|&u| r.side_of(u) == Side::Crusader)
            .unwrap();
        inside.units[crusader].at = Location::Map(r.map.hexes_of(&[Class::Street])[0]);
        assert!(prospects(&r, &inside, 1) > start);
        // A camp hex taken, a king killed, Moslem units regrouping.
        let mut camp = p.clone();
        let moslem = (0..r.units.len())
            .find(|&u| r.side_of(u) == Side::Moslem)
            .unwrap();
        camp.units[moslem].at = Location::Map(r.map.camps().next().unwrap().0);
        assert!(prospects(&r, &camp, 1) < start);
        let mut king = p.clone();
        king.leaders[r.leader("Richard").unwrap()].dead = true;
        assert!(prospects(&r, &king, 1) < start);
        let mut regrouping = p.clone();
        regrouping.units[moslem].at = Location::Regrouping;
        assert!(prospects(&r, &regrouping, 1) > start);
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
