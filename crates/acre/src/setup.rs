//! Initial Set-Up (17.0): which counters begin on the map, where each side may place them,
//! the check that a finished set-up is legal (stacking, areas, command radius), and the
//! historical quick start: each contingent by its own camp, the garrison on the walls.
//!
//! The Crusader places first, then the Moslem (17.0). The off-map armies of Sinjan, Egypt and
//! Mosul wait for intervention (7.0) and are not placed.

use std::collections::{BTreeMap, BTreeSet};

use hexgrid::Hex;
use serde::{Deserialize, Serialize};

use crate::leaders;
use crate::map::Class;
use crate::position::Location;
use crate::rules::{Army, Rules, Side, SiegeKind};
use crate::Position;

/// A counter placed at set-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Piece {
    /// A combat unit, indexed as [`Rules::units`].
    Unit(usize),
    /// A leader, indexed as [`Rules::leaders`].
    Leader(usize),
    /// A siege unit, indexed as [`Rules::siege`].
    Siege(usize),
}

impl Piece {
    /// The counter's side.
    pub fn side(self, rules: &Rules) -> Side {
        match self {
            Piece::Unit(u) => rules.side_of(u),
            Piece::Leader(l) => rules.leaders[l].side,
            Piece::Siege(s) => rules.siege[s].side,
        }
    }

    /// The counter's printed name.
    pub fn name(self, rules: &Rules) -> &str {
        match self {
            Piece::Unit(u) => &rules.units[u].name,
            Piece::Leader(l) => &rules.leaders[l].name,
            Piece::Siege(s) => &rules.siege[s].name,
        }
    }

    /// Where the counter is.
    pub fn at(self, pos: &Position) -> Location {
        match self {
            Piece::Unit(u) => pos.units[u].at,
            Piece::Leader(l) => pos.leaders[l].at,
            Piece::Siege(s) => pos.siege[s].at,
        }
    }

    fn set(self, pos: &mut Position, at: Location) {
        match self {
            Piece::Unit(u) => pos.units[u].at = at,
            Piece::Leader(l) => pos.leaders[l].at = at,
            Piece::Siege(s) => pos.siege[s].at = at,
        }
    }
}

/// The terrain key of the harbour tower, whose garrison is exempt from the command radius
/// at set-up (17.0 with the Addenda: hex 2104 in `data/acre/map.toml`).
const HARBOUR_TOWER: &str = "harbour_tower";

/// Whether a leader commands any garrison contingent (17.0: "the Moslem garrison under
/// Mashtub and Qaraqush").
fn garrison_leader(rules: &Rules, leader: usize) -> bool {
    rules
        .contingents
        .iter()
        .any(|c| c.army == Some(Army::Garrison) && c.leader == leader)
}

/// Acre 17.0: every counter of `side` placed at set-up: all the Crusader's combat units,
/// leaders in play and siege units; the Moslem garrison's units, its two leaders and the two
/// Moslem small catapults.
pub fn pieces(rules: &Rules, side: Side, conrad: bool) -> Vec<Piece> {
    let units = (0..rules.units.len())
        .filter(|&u| {
            let c = rules.contingent_of(u);
            c.side == side && (side == Side::Crusader || c.army == Some(Army::Garrison))
        })
        .map(Piece::Unit);
    let leaders = (0..rules.leaders.len())
        .filter(|&l| {
            rules.leaders[l].side == side
                && crate::leaders::in_game(rules, l, conrad)
                && (side == Side::Crusader || garrison_leader(rules, l))
        })
        .map(Piece::Leader);
    let siege = (0..rules.siege.len())
        .filter(|&s| rules.siege[s].side == side)
        .map(Piece::Siege);
    units.chain(leaders).chain(siege).collect()
}

/// Acre 17.0, 5.16: the Crusader's set-up ground: between the outerworks and the foss, more
/// than four hexes from every foss hex.
pub fn crusader_ground(rules: &Rules) -> BTreeSet<Hex> {
    let limit = rules.scenario.setup_distance;
    rules
        .map
        .between_outerworks_and_foss()
        .into_iter()
        .filter(|&h| {
            rules
                .map
                .distance_to(h, &[Class::Foss])
                .is_none_or(|d| d > limit)
        })
        .collect()
}

/// Acre 17.0 with the Addenda, 12.34: the Moslem's set-up ground: the Wall and Tower hexes
/// (with the harbour tower, 2104) and the city within them.
pub fn moslem_ground(rules: &Rules) -> BTreeSet<Hex> {
    rules
        .map
        .hexes_of(&[Class::Street, Class::Wall, Class::Tower])
        .into_iter()
        .collect()
}

/// Acre 17.0, 5.51-5.53, 12.23: whether `piece` may be placed in `hex` now: its side's
/// ground, a giant catapult never on the outerworks, and no second combat unit, leader or
/// siege unit in a hex.
pub fn check_place(rules: &Rules, pos: &Position, piece: Piece, hex: Hex) -> Result<(), String> {
    check_on(rules, pos, piece, hex, &ground(rules, piece.side(rules)))
}

/// A side's set-up ground.
pub fn ground(rules: &Rules, side: Side) -> BTreeSet<Hex> {
    match side {
        Side::Crusader => crusader_ground(rules),
        Side::Moslem => moslem_ground(rules),
    }
}

/// [`check_place`] with the side's ground already worked out.
fn check_on(
    rules: &Rules,
    pos: &Position,
    piece: Piece,
    hex: Hex,
    ground: &BTreeSet<Hex>,
) -> Result<(), String> {
    let name = piece.name(rules);
    let id = || rules.map.id(hex);
    if !ground.contains(&hex) {
        return Err(match piece.side(rules) {
            Side::Crusader => format!(
                "{name} may not set up in {id}: the Crusaders set up between the outerworks \
                 and the foss, more than {} hexes from the foss (17.0)",
                rules.scenario.setup_distance,
                id = id()
            ),
            Side::Moslem => format!(
                "{name} may not set up in {id}: the garrison sets up on the walls and towers \
                 or within the city (17.0)",
                id = id()
            ),
        });
    }
    let taken = match piece {
        Piece::Unit(_) => pos.unit_at(hex).is_some(),
        Piece::Leader(_) => pos.leader_at(hex).is_some(),
        Piece::Siege(s) => {
            if rules.siege[s].kind == SiegeKind::GiantCatapult
                && rules.map.class(hex) == Class::Outerworks
            {
                return Err(format!(
                    "{name} may not be deployed on the outerworks in {id} (12.23)",
                    id = id()
                ));
            }
            pos.siege_at(hex).is_some()
        }
    };
    if taken {
        return Err(format!(
            "{name} may not set up in {id}: one combat unit, one leader and one siege unit \
             at most in a hex (5.5)",
            id = id()
        ));
    }
    Ok(())
}

/// Places a checked piece.
pub fn place(rules: &Rules, pos: &mut Position, piece: Piece, hex: Hex) -> Result<(), String> {
    check_place(rules, pos, piece, hex)?;
    piece.set(pos, Location::Map(hex));
    Ok(())
}

/// [`place`] with the side's ground already worked out.
fn place_on(
    rules: &Rules,
    pos: &mut Position,
    piece: Piece,
    hex: Hex,
    ground: &BTreeSet<Hex>,
) -> Result<(), String> {
    check_on(rules, pos, piece, hex, ground)?;
    piece.set(pos, Location::Map(hex));
    Ok(())
}

/// Acre 17.0: whether `side`'s set-up is complete and legal: every piece placed on its
/// ground, and every combat unit within twice its leader's Command Radius, except one in the
/// harbour tower.
pub fn check_complete(
    rules: &Rules,
    pos: &Position,
    side: Side,
    conrad: bool,
) -> Result<(), String> {
    let ground = ground(rules, side);
    for piece in pieces(rules, side, conrad) {
        let Location::Map(hex) = piece.at(pos) else {
            return Err(format!("{} is not set up yet (17.0)", piece.name(rules)));
        };
        let mut without = pos.clone();
        piece.set(&mut without, Location::OffMap);
        check_on(rules, &without, piece, hex, &ground)?;
        if let Piece::Unit(u) = piece {
            if rules.map.terrain(hex).key != HARBOUR_TOWER
                && !leaders::within_twice_radius(rules, pos, u, conrad)
            {
                return Err(format!(
                    "{} in {} is not within twice its leader's Command Radius (17.0)",
                    piece.name(rules),
                    rules.map.id(hex)
                ));
            }
        }
    }
    Ok(())
}

/// Acre 17.0: the historical quick start (`deploy-historical`). Each Crusader contingent's
/// leader stands on the set-up ground nearest his nation's camp, his units in the nearest
/// free hexes around him; the siege engines stand as near the foss as set-up allows. The
/// garrison's leaders each take a stretch of the walls, their units on the nearest Wall and
/// Tower hexes. The rules print no deployment: this one follows the camps of the map, which
/// follow the siege's plans (rules-notes).
pub fn historical(rules: &Rules, conrad: bool) -> Result<Position, String> {
    let mut pos = Position::empty(rules);
    let crusader = crusader_ground(rules);
    let to_foss: BTreeMap<Hex, u32> = crusader
        .iter()
        .map(|&h| (h, rules.map.distance_to(h, &[Class::Foss]).unwrap_or(0)))
        .collect();
    deploy_side(rules, &mut pos, Side::Crusader, conrad, &crusader, |h| {
        to_foss.get(&h).copied().unwrap_or(u32::MAX)
    })?;
    let walls: Vec<Hex> = rules.map.hexes_of(&[Class::Wall, Class::Tower]);
    let moslem = moslem_ground(rules);
    deploy_side(rules, &mut pos, Side::Moslem, conrad, &moslem, |h| {
        walls.iter().map(|w| w.distance(h)).min().unwrap_or(0)
    })?;
    check_complete(rules, &pos, Side::Crusader, conrad)?;
    check_complete(rules, &pos, Side::Moslem, conrad)?;
    Ok(pos)
}

/// [`historical`]'s deployments already worked out in this process, by rules and 16.0: the
/// deployment is a function of the two.
type KeptDeployment = (std::sync::Weak<Rules>, bool, Result<Position, String>);

/// [`historical`] kept ([`KeptDeployment`]), the newest last.
static HISTORICAL: std::sync::Mutex<Vec<KeptDeployment>> = std::sync::Mutex::new(Vec::new());

/// How many deployments [`HISTORICAL`] keeps.
const HISTORICAL_KEPT: usize = 4;

/// [`historical`] worked out once per process for the same rules (the same `Arc`, as
/// [`Rules::shared`] gives every game of the same data) and 16.0, then copied.
pub fn historical_kept(rules: &std::sync::Arc<Rules>, conrad: bool) -> Result<Position, String> {
    let same = |k: &KeptDeployment| {
        k.1 == conrad && k.0.as_ptr() == std::sync::Arc::as_ptr(rules) && k.0.strong_count() > 0
    };
    {
        let kept = HISTORICAL
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(k) = kept.iter().find(|k| same(k)) {
            return k.2.clone();
        }
    }
    let deployment = historical(rules, conrad);
    let mut kept = HISTORICAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    kept.retain(|k| k.0.strong_count() > 0 && !same(k));
    if kept.len() >= HISTORICAL_KEPT {
        drop(kept.remove(0));
    }
    kept.push((std::sync::Arc::downgrade(rules), conrad, deployment.clone()));
    deployment
}

/// Deploys one side: each leader at an anchor, his units nearest him (the nearer the front
/// the better among equals), then the siege units nearest the front (`to_front` measures how
/// far a hex is from where the side faces the enemy: the foss, or the walls themselves).
fn deploy_side(
    rules: &Rules,
    pos: &mut Position,
    side: Side,
    conrad: bool,
    ground: &BTreeSet<Hex>,
    to_front: impl Fn(Hex) -> u32,
) -> Result<(), String> {
    let pieces = pieces(rules, side, conrad);
    let leaders: Vec<usize> = pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Leader(l) => Some(*l),
            _ => None,
        })
        .collect();
    let anchors = anchors(rules, side, &leaders, ground, &to_front);
    for (&leader, anchor) in leaders.iter().zip(anchors) {
        let spot = nearest(ground, anchor, |h| {
            check_on(rules, pos, Piece::Leader(leader), h, ground).is_ok()
        })
        .ok_or_else(|| format!("no room for {}", rules.leaders[leader].name))?;
        place_on(rules, pos, Piece::Leader(leader), spot, ground)?;
        for piece in pieces.iter().copied() {
            let Piece::Unit(u) = piece else { continue };
            if !leaders::commands(rules, leader, conrad, rules.units[u].contingent) {
                continue;
            }
            let radius = 2 * u32::from(rules.leaders[leader].radius);
            let hex = nearest_by(
                ground,
                |h| (spot.distance(h), to_front(h)),
                |h| spot.distance(h) <= radius && check_on(rules, pos, piece, h, ground).is_ok(),
            )
            .ok_or_else(|| format!("no room for {}", piece.name(rules)))?;
            place_on(rules, pos, piece, hex, ground)?;
        }
    }
    for piece in pieces.iter().copied() {
        if let Piece::Siege(_) = piece {
            let hex = nearest_by(
                ground,
                |h| (to_front(h), 0),
                |h| check_on(rules, pos, piece, h, ground).is_ok(),
            )
            .ok_or_else(|| format!("no room for {}", piece.name(rules)))?;
            place_on(rules, pos, piece, hex, ground)?;
        }
    }
    Ok(())
}

/// Where each leader of a side is anchored: a Crusader leader at his nation's camp (the
/// nation's leaders shared out over its camp hexes in order), a garrison leader at an even
/// share of the Wall and Tower hexes.
fn anchors(
    rules: &Rules,
    side: Side,
    leaders: &[usize],
    ground: &BTreeSet<Hex>,
    to_front: &impl Fn(Hex) -> u32,
) -> Vec<Hex> {
    let front: Vec<Hex> = ground
        .iter()
        .copied()
        .filter(|&h| to_front(h) == 0)
        .collect();
    let nation = |l: usize| match side {
        Side::Crusader => rules
            .contingents
            .iter()
            .find(|c| c.leader == l)
            .and_then(|c| c.nationality),
        Side::Moslem => None,
    };
    leaders
        .iter()
        .enumerate()
        .map(|(i, &l)| {
            let n = nation(l);
            let camps: Vec<Hex> = rules
                .map
                .camps()
                .filter(|(_, c)| n.is_some() && Some(*c) == n)
                .map(|(h, _)| h)
                .collect();
            let peers: Vec<usize> = leaders
                .iter()
                .copied()
                .filter(|&p| nation(p) == n)
                .collect();
            let k = peers.iter().position(|&p| p == l).unwrap_or(0);
            if !camps.is_empty() {
                camps[k * camps.len() / peers.len()]
            } else if !front.is_empty() {
                front[i * front.len() / leaders.len()]
            } else {
                ground.iter().next().copied().unwrap_or(Hex::ORIGIN)
            }
        })
        .collect()
}

/// The free hex of `ground` nearest `to`, ties to the lower hex.
fn nearest(ground: &BTreeSet<Hex>, to: Hex, ok: impl Fn(Hex) -> bool) -> Option<Hex> {
    nearest_by(ground, |h| (to.distance(h), 0), ok)
}

/// The hex of `ground` passing `ok` with the least key, ties to the lower hex.
fn nearest_by(
    ground: &BTreeSet<Hex>,
    key: impl Fn(Hex) -> (u32, u32),
    ok: impl Fn(Hex) -> bool,
) -> Option<Hex> {
    ground
        .iter()
        .copied()
        .filter(|&h| ok(h))
        .min_by_key(|&h| (key(h), h))
}
