//! Regrouping (11.0): isolation by lines of communication to a friendly base (11.1), the
//! pairing of identical units in the Regrouping Box (11.2), and the redeployment of every
//! surviving unit (11.3): the garrison anywhere in Acre, the Crusaders between the outerworks
//! and the foss more than four hexes from the walls (11.32), the Moslem army off the map.
//!
//! The Regrouping Segment in order (4.0 I, 11.0): [`eliminate_isolated`], [`army_leaves_map`],
//! each side's [`redeploy`] until [`check_redeployment`] passes, [`regroup`], then the
//! returned units placed with [`redeploy`] (those of [`awaiting_placement`]).

use std::collections::BTreeSet;

use hexgrid::Hex;

use crate::map::Class;
use crate::position::{Board, Location, Pieces};
use crate::rules::{Army, Rules, Side};
use crate::setup::Piece;
use crate::{leaders, zoc, Position};

/// Acre 11.13: whether a hex is a friendly base for a unit of `side`: any camp hex for the
/// Crusaders; any north or east edge hex for the Moslem army.
pub fn is_base(rules: &Rules, side: Side, hex: Hex) -> bool {
    match side {
        Side::Crusader => rules.map.camp(hex).is_some(),
        Side::Moslem => {
            rules.map.area("north_edge").contains(&hex)
                || rules.map.area("east_edge").contains(&hex)
        }
    }
}

/// Acre 11.11, 11.12, 11.14: whether a unit on the map is isolated: no path of contiguous
/// hexes to a friendly base free of impassable terrain, enemy units and enemy zones of
/// control. Garrison units are never isolated.
pub fn isolated(rules: &Rules, pos: &Position, unit: usize) -> bool {
    let Some(start) = pos.hex_of(unit) else {
        return false;
    };
    let side = rules.side_of(unit);
    if rules.contingent_of(unit).army == Some(Army::Garrison) {
        return false;
    }
    let open = |h: Hex| {
        pos.effects(rules, h).cost.is_some()
            && pos.side_at(rules, h) != Some(side.enemy())
            && !zoc::controlled(rules, pos, h, side.enemy())
    };
    if is_base(rules, side, start) {
        return false;
    }
    let mut seen = BTreeSet::from([start]);
    let mut stack = vec![start];
    while let Some(h) = stack.pop() {
        for n in rules.map.neighbours(h) {
            if seen.contains(&n) || rules.map.all_sea_between(h, n) || !open(n) {
                continue;
            }
            if is_base(rules, side, n) {
                return false;
            }
            seen.insert(n);
            stack.push(n);
        }
    }
    true
}

/// Acre 11.2: whether two units in the Regrouping Box make a pair: the same type, strength
/// and nationality (for the Moslems, the same army).
pub fn pairable(rules: &Rules, a: usize, b: usize) -> bool {
    let (ua, ub) = (&rules.units[a], &rules.units[b]);
    let (ca, cb) = (rules.contingent_of(a), rules.contingent_of(b));
    a != b
        && ca.side == cb.side
        && ua.unit_type == ub.unit_type
        && ua.melee == ub.melee
        && ua.movement == ub.movement
        && ca.nationality == cb.nationality
        && ca.army == cb.army
}

/// Acre 11.2: every pair the Box holds, matched in counter order: the first of each pair
/// returns to play (a garrison unit at full strength), the second is destroyed. A player may
/// not refuse to regroup a pair.
pub fn pairs(rules: &Rules, pos: &Position) -> Vec<(usize, usize)> {
    let mut waiting: Vec<usize> = (0..rules.units.len())
        .filter(|&u| pos.units[u].at == Location::Regrouping)
        .collect();
    let mut out = Vec::new();
    while let Some(a) = waiting.first().copied() {
        waiting.remove(0);
        if let Some(i) = waiting.iter().position(|&b| pairable(rules, a, b)) {
            out.push((a, waiting.remove(i)));
        }
    }
    out
}

/// Acre 11.15, 11.11: every unit on the map isolated now, all judged at once before any is
/// removed: [`isolated`] for each unit, from the hexes each side traces to a friendly base
/// worked out once a side. A unit traces a path out of its hex to a base exactly when its
/// hex is a base or a hex next to it (across no all-sea hexside) is joined to an open base
/// by open hexes: the path from there on never needs the unit's own hex.
pub fn isolated_units(rules: &Rules, pos: &Position) -> Vec<usize> {
    let board = Board::new(rules, pos);
    let grid = rules.map.grid;
    let supplied = [Side::Crusader, Side::Moslem].map(|side| traced_to_base(rules, &board, side));
    (0..rules.units.len())
        .filter(|&u| {
            let Some(start) = pos.hex_of(u) else {
                return false;
            };
            let side = rules.side_of(u);
            if rules.contingent_of(u).army == Some(Army::Garrison) || is_base(rules, side, start) {
                return false;
            }
            let supplied = &supplied[usize::from(side == Side::Moslem)];
            !rules.map.neighbours(start).any(|n| {
                !rules.map.all_sea_between(start, n) && grid.index(n).is_some_and(|k| supplied[k])
            })
        })
        .collect()
}

/// Acre 11.11, 11.12: by each hex's grid index, whether it is open to `side`'s lines of
/// communication (not impassable, no enemy unit, no enemy zone of control) and joined by
/// such hexes, across no all-sea hexside, to a friendly base that is open too.
fn traced_to_base(rules: &Rules, board: &Board, side: Side) -> Vec<bool> {
    let grid = rules.map.grid;
    let pos = board.position();
    let enemy_zoc = zoc::control(rules, board, side.enemy());
    let open = |h: Hex, k: usize| {
        pos.effects(rules, h).cost.is_some()
            && board.side_at(rules, h) != Some(side.enemy())
            && !enemy_zoc[k]
    };
    let mut reached = vec![false; grid.len()];
    let bases: Vec<Hex> = match side {
        Side::Crusader => rules.map.camps().map(|(h, _)| h).collect(),
        Side::Moslem => [rules.map.area("north_edge"), rules.map.area("east_edge")].concat(),
    };
    let mut stack = Vec::new();
    for h in bases {
        if let Some(k) = grid.index(h) {
            if !reached[k] && open(h, k) {
                reached[k] = true;
                stack.push(h);
            }
        }
    }
    while let Some(h) = stack.pop() {
        for n in rules.map.neighbours(h) {
            let Some(k) = grid.index(n) else { continue };
            if reached[k] || rules.map.all_sea_between(h, n) || !open(n, k) {
                continue;
            }
            reached[k] = true;
            stack.push(n);
        }
    }
    reached
}

/// Acre 11.15, 10.52: at the start of the Regrouping Segment every isolated unit is
/// eliminated into the Regrouping Box (Moslem army units count toward 10.52). A leader with
/// an isolated unit is not put through the loss procedure: 14.4 asks it for combat results,
/// and he is redeployed at once (rules-notes). Returns the units eliminated.
pub fn eliminate_isolated(rules: &Rules, pos: &mut Position) -> Vec<usize> {
    let out = isolated_units(rules, pos);
    for &u in &out {
        crate::melee::eliminate(rules, pos, u);
    }
    out
}

/// Whether a leader commands a garrison contingent (17.0).
fn garrison_leader(rules: &Rules, leader: usize) -> bool {
    rules
        .contingents
        .iter()
        .any(|c| c.army == Some(Army::Garrison) && c.leader == leader)
}

/// Acre 11.33, 11.0 ("all of a Player's units currently in the game are deployed on (or
/// off) the map"): every Moslem army unit and army leader on the map is removed from it.
/// Returns the pieces removed.
pub fn army_leaves_map(rules: &Rules, pos: &mut Position) -> Vec<Piece> {
    let mut out = Vec::new();
    for u in 0..rules.units.len() {
        let army = rules.contingent_of(u).army;
        if army.is_some_and(|a| a != Army::Garrison) && pos.hex_of(u).is_some() {
            pos.units[u].at = Location::OffMap;
            pos.units[u].disrupted = false;
            out.push(Piece::Unit(u));
        }
    }
    for l in 0..rules.leaders.len() {
        if rules.leaders[l].side == Side::Moslem
            && !garrison_leader(rules, l)
            && leaders::leader_hex(pos, l).is_some()
        {
            pos.leaders[l].at = Location::OffMap;
            out.push(Piece::Leader(l));
        }
    }
    out
}

/// Acre 11.31, 11.32: where a side redeploys: the Moslem garrison anywhere within Acre, its
/// Wall and Tower hexes included; the Crusaders anywhere between the outerworks and the foss
/// but not within four hexes of a Wall or Tower hex (the distance is the scenario's
/// `setup_distance`; 11.32 counts it from the walls where 17.0 counts it from the foss:
/// rules-notes), never on the outerworks or in the foss themselves ("between").
pub fn redeploy_ground(rules: &Rules, side: Side) -> BTreeSet<Hex> {
    match side {
        Side::Moslem => rules
            .map
            .hexes_of(&[Class::Street, Class::Wall, Class::Tower])
            .into_iter()
            .collect(),
        Side::Crusader => {
            let limit = rules.scenario.setup_distance;
            rules
                .map
                .between_outerworks_and_foss()
                .into_iter()
                .filter(|&h| {
                    rules
                        .map
                        .distance_to(h, &[Class::Wall, Class::Tower])
                        .is_none_or(|d| d > limit)
                })
                .filter(|&h| !matches!(rules.map.class(h), Class::Foss | Class::Outerworks))
                .collect()
        }
    }
}

/// Acre 11.3: whether a piece is redeployed on the map: a Crusader combat unit or leader, a
/// garrison unit or garrison leader. Siege units are not: they move only in the Strategic
/// Movement Segment (12.23, 12.34); Moslem army pieces go off the map (11.33).
fn redeployable(rules: &Rules, piece: Piece) -> bool {
    match piece {
        Piece::Unit(u) => {
            rules.side_of(u) == Side::Crusader
                || rules.contingent_of(u).army == Some(Army::Garrison)
        }
        Piece::Leader(l) => rules.leaders[l].side == Side::Crusader || garrison_leader(rules, l),
        Piece::Siege(_) => false,
    }
}

/// Acre 11.3, 11.31, 11.32, 5.5, 5.12, 15.14: whether a piece may be redeployed to `hex`
/// now: a combat unit or leader on the map (or returning from the Box, 11.2) of the
/// Crusaders or the garrison, onto its side's redeployment ground, into a hex without
/// another combat unit (or leader), without an enemy unit, and, for cavalry, without a
/// friendly siege unit (15.14).
pub fn check_redeploy(rules: &Rules, pos: &Position, piece: Piece, hex: Hex) -> Result<(), String> {
    let side = piece.side(rules);
    check_redeploy_on(rules, pos, piece, hex, &redeploy_ground(rules, side))
}

/// [`check_redeploy`] with the side's redeployment ground ([`redeploy_ground`]) worked out
/// once by the caller.
pub fn check_redeploy_on<P: Pieces + ?Sized>(
    rules: &Rules,
    pieces: &P,
    piece: Piece,
    hex: Hex,
    ground: &BTreeSet<Hex>,
) -> Result<(), String> {
    match redeploy_fault(rules, pieces, piece, hex, Some(ground)) {
        None => Ok(()),
        Some(fault) => Err(fault.text(rules, piece, hex)),
    }
}

/// Acre 11.3, 11.31, 11.32, 5.5, 5.12, 15.14: whether [`check_redeploy_on`] accepts the
/// redeployment to `hex`, a hex of the side's redeployment ground, without wording a
/// refusal (the legal actions ask it of every hex of the ground).
pub fn redeploy_allowed_on_ground<P: Pieces + ?Sized>(
    rules: &Rules,
    pieces: &P,
    piece: Piece,
    hex: Hex,
) -> bool {
    redeploy_fault(rules, pieces, piece, hex, None).is_none()
}

/// Why [`check_redeploy_on`] refuses a redeployment, worded by [`RedeployFault::text`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RedeployFault {
    /// 12.23, 12.34, 11.33: a siege unit or Moslem army piece.
    NotRedeployable,
    /// 11.3: in a box.
    NotInPlay,
    /// 14.41: a dead or wounded leader.
    LeaderOut,
    /// 11.31, 11.32: off the side's redeployment ground.
    OffGround(Side),
    /// 5.12: an enemy piece in the hex.
    Enemy,
    /// 15.14: cavalry with a siege unit.
    CavalryWithSiege,
    /// 5.27, 15.14: prohibited terrain.
    Prohibited,
    /// 5.5, 15.11: the unit may not end a move there.
    MayNotStand,
    /// 5.51, 5.52: another combat unit (or leader) there.
    Taken,
}

impl RedeployFault {
    /// The refusal in words, for `piece` redeployed to `hex`.
    fn text(self, rules: &Rules, piece: Piece, hex: Hex) -> String {
        let name = piece.name(rules);
        let id = rules.map.id(hex);
        match self {
            RedeployFault::NotRedeployable => format!(
                "{name} is not redeployed on the map: siege units stay until the Strategic Movement Segment (12.23, 12.34), the Moslem army leaves the map (11.33)"
            ),
            RedeployFault::NotInPlay => format!("{name} is not in play (11.3)"),
            RedeployFault::LeaderOut => format!("{name} is not in play (14.41)"),
            RedeployFault::OffGround(Side::Crusader) => format!(
                "{name} may not redeploy to {id}: between the outerworks and the foss, more than {} hexes from the walls (11.32)",
                rules.scenario.setup_distance),
            RedeployFault::OffGround(Side::Moslem) => format!("{name} may not redeploy to {id}: the garrison redeploys within Acre (11.31)"),
            RedeployFault::Enemy => format!("{id} holds an enemy unit (5.12)"),
            RedeployFault::CavalryWithSiege => {
                format!("cavalry may not be placed with a siege unit in {id} (15.14)")
            }
            RedeployFault::Prohibited => {
                format!("{id} is prohibited terrain for {name} (5.27, 15.14)")
            }
            RedeployFault::MayNotStand => format!("{name} may not stand in {id} (5.5, 15.11)"),
            RedeployFault::Taken => format!("{id} already holds one (5.51, 5.52)"),
        }
    }
}

/// Acre 11.3, 11.31, 11.32, 5.5, 5.12, 15.14: the first reason [`check_redeploy_on`]
/// refuses the redeployment, if any, with the side's redeployment `ground` (`None`: `hex`
/// is known to be on it).
fn redeploy_fault<P: Pieces + ?Sized>(
    rules: &Rules,
    pieces: &P,
    piece: Piece,
    hex: Hex,
    ground: Option<&BTreeSet<Hex>>,
) -> Option<RedeployFault> {
    let pos = pieces.position();
    if !redeployable(rules, piece) {
        return Some(RedeployFault::NotRedeployable);
    }
    if !matches!(piece.at(pos), Location::Map(_) | Location::OffMap) {
        return Some(RedeployFault::NotInPlay);
    }
    if let Piece::Leader(l) = piece {
        let wounded = pos.leaders[l].wounded_until.is_some() && piece.at(pos) == Location::OffMap;
        if pos.leaders[l].dead || wounded {
            return Some(RedeployFault::LeaderOut);
        }
    }
    let side = piece.side(rules);
    if ground.is_some_and(|g| !g.contains(&hex)) {
        return Some(RedeployFault::OffGround(side));
    }
    if pieces.side_at(rules, hex) == Some(side.enemy())
        || pieces
            .leader_at(hex)
            .is_some_and(|l| rules.leaders[l].side != side)
        || pieces
            .siege_at(hex)
            .is_some_and(|s| rules.siege[s].side != side)
    {
        return Some(RedeployFault::Enemy);
    }
    let taken = match piece {
        Piece::Unit(u) => {
            if rules.unit_type(u).cavalry && pieces.siege_at(hex).is_some() {
                return Some(RedeployFault::CavalryWithSiege);
            }
            let marsh = rules.unit_type(u).cavalry && rules.map.class(hex) == Class::Marsh;
            if marsh || pos.effects(rules, hex).cost.is_none() {
                return Some(RedeployFault::Prohibited);
            }
            if !crate::movement::may_end_in(rules, pieces, u, hex) {
                return Some(RedeployFault::MayNotStand);
            }
            pieces.unit_at(hex).is_some_and(|o| o != u)
        }
        Piece::Leader(l) => pieces.leader_at(hex).is_some_and(|o| o != l),
        Piece::Siege(_) => false,
    };
    taken.then_some(RedeployFault::Taken)
}

/// Acre 11.3: redeploys a checked piece ([`check_redeploy`]).
pub fn redeploy(rules: &Rules, pos: &mut Position, piece: Piece, hex: Hex) -> Result<(), String> {
    let ground = redeploy_ground(rules, piece.side(rules));
    redeploy_on(rules, pos, piece, hex, &ground)
}

/// [`redeploy`] with the side's redeployment ground ([`redeploy_ground`]) worked out once.
pub fn redeploy_on(
    rules: &Rules,
    pos: &mut Position,
    piece: Piece,
    hex: Hex,
    ground: &BTreeSet<Hex>,
) -> Result<(), String> {
    check_redeploy_on(rules, pos, piece, hex, ground)?;
    let at = Location::Map(hex);
    match piece {
        Piece::Unit(u) => pos.units[u].at = at,
        Piece::Leader(l) => pos.leaders[l].at = at,
        Piece::Siege(s) => pos.siege[s].at = at,
    }
    Ok(())
}

/// Acre 11.2, 11.3: the units of `side` returned from the Regrouping Box by [`regroup`]
/// (`pairs` is what it returned) still to be placed on the map: Crusader and garrison units
/// waiting off the map. Army units stay off the map (11.0).
pub fn awaiting_placement(
    rules: &Rules,
    pos: &Position,
    side: Side,
    pairs: &[(usize, usize)],
) -> Vec<usize> {
    pairs
        .iter()
        .map(|&(back, _)| back)
        .filter(|&u| {
            rules.side_of(u) == side
                && pos.units[u].at == Location::OffMap
                && redeployable(rules, Piece::Unit(u))
        })
        .collect()
}

/// Acre 11.3, 11.31-11.33: whether `side`'s redeployment is complete: every Crusader or
/// garrison combat unit and leader on the map stands on its redeployment ground, none of the
/// units returned by [`regroup`] (`pairs`; empty before it) waits off the map to be placed,
/// and no Moslem army piece is left on the map.
pub fn check_redeployment(
    rules: &Rules,
    pos: &Position,
    side: Side,
    pairs: &[(usize, usize)],
) -> Result<(), String> {
    let ground = redeploy_ground(rules, side);
    if let Some(&u) = awaiting_placement(rules, pos, side, pairs).first() {
        return Err(format!(
            "{} is still to be placed (11.2, 11.3)",
            rules.units[u].name
        ));
    }
    let units = (0..rules.units.len())
        .filter(|&u| rules.side_of(u) == side)
        .map(Piece::Unit);
    let leaders = (0..rules.leaders.len())
        .filter(|&l| rules.leaders[l].side == side)
        .map(Piece::Leader);
    for piece in units.chain(leaders) {
        let Location::Map(h) = piece.at(pos) else {
            continue;
        };
        if !redeployable(rules, piece) {
            return Err(format!("{} must leave the map (11.33)", piece.name(rules)));
        }
        if !ground.contains(&h) {
            return Err(format!(
                "{} in {} is not on its redeployment ground (11.31, 11.32)",
                piece.name(rules),
                rules.map.id(h)
            ));
        }
    }
    Ok(())
}

/// Acre 11.2: regroups every pair in the Box ([`pairs`]): the second of each pair is
/// destroyed for good; the first returns to play, undisrupted and (a garrison unit) at full
/// strength: a Moslem army unit off the map with its army, the others off the map until
/// placed by [`redeploy`] ([`awaiting_placement`]). Returns the pairs, returned unit first:
/// the game keeps them until the returned units are placed.
pub fn regroup(rules: &Rules, pos: &mut Position) -> Vec<(usize, usize)> {
    let pairs = pairs(rules, pos);
    for &(back, gone) in &pairs {
        pos.units[gone].at = Location::Destroyed;
        let state = &mut pos.units[back];
        state.at = Location::OffMap;
        state.disrupted = false;
        state.reduced = false;
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{put, setup};

    #[test]
    fn cut_off_from_the_camps_is_isolated() {
        let (r, mut p) = setup();
        let u = put(&r, &mut p, "English Men-at-Arms 1", "0420");
        assert!(!isolated(&r, &p, u));
        // Two Moslem units two hexes away leave a way round; surrounding it does not.
        let at = r.map.hex("0420").unwrap();
        let ring: Vec<_> = r.map.neighbours(at).collect();
        let moslems: Vec<usize> = (0..r.units.len())
            .filter(|&m| r.contingent_of(m).army == Some(Army::Sinjan))
            .take(ring.len())
            .collect();
        p.units[moslems[0]].at = Location::Map(r.map.hex("0618").unwrap());
        p.units[moslems[1]].at = Location::Map(r.map.hex("0222").unwrap());
        assert!(!isolated(&r, &p, u));
        for (m, h) in moslems.iter().zip(&ring) {
            p.units[*m].at = Location::Map(*h);
        }
        assert!(isolated(&r, &p, u));
        // Garrison units never are (11.14).
        let g = put(&r, &mut p, "Mashtub Spearmen 1", "0520");
        assert!(!isolated(&r, &p, g));
    }

    #[test]
    fn the_crusaders_redeploy_between_the_outerworks_and_the_foss_away_from_the_walls() {
        let (r, _) = setup();
        let ground = redeploy_ground(&r, Side::Crusader);
        assert!(!ground.is_empty());
        let between = r.map.between_outerworks_and_foss();
        for h in &ground {
            assert!(between.contains(h));
            let d = r.map.distance_to(*h, &[Class::Wall, Class::Tower]).unwrap();
            assert!(
                d > 4,
                "{} is {d} hexes from the walls (11.32)",
                r.map.id(*h)
            );
        }
        // Five hexes from the east wall is allowed, four is not.
        assert!(ground.contains(&r.map.hex("1310").unwrap()));
        assert!(!ground.contains(&r.map.hex("1410").unwrap()));
        // The garrison redeploys in Acre, walls included (11.31).
        let acre = redeploy_ground(&r, Side::Moslem);
        assert!(acre.contains(&r.map.hex("1810").unwrap()));
        assert!(acre.contains(&r.map.hex("2010").unwrap()));
        assert!(!acre.contains(&r.map.hex("1710").unwrap()));
    }

    #[test]
    fn the_regrouping_segment_in_order() {
        let (r, mut p) = setup();
        // An English unit cut off by Moslem army units; the army and the garrison on the map.
        let cut = put(&r, &mut p, "English Men-at-Arms 1", "0420");
        let at = r.map.hex("0420").unwrap();
        let ring: Vec<_> = r.map.neighbours(at).collect();
        let army: Vec<usize> = (0..r.units.len())
            .filter(|&m| r.contingent_of(m).army == Some(Army::Sinjan))
            .take(ring.len())
            .collect();
        for (m, h) in army.iter().zip(&ring) {
            p.units[*m].at = Location::Map(*h);
        }
        let saladin = r.leader("Saladin").unwrap();
        p.leaders[saladin].at = Location::Map(r.map.hex("0520").unwrap());
        let near_wall = put(&r, &mut p, "English Men-at-Arms 2", "1410");
        let g1 = put(&r, &mut p, "Mashtub Spearmen 1", "1810");
        let g2 = r.unit("Mashtub Spearmen 2").unwrap();
        let g3 = r.unit("Mashtub Spearmen 3").unwrap();
        p.units[g2].at = Location::Regrouping;
        p.units[g2].reduced = true;
        p.units[g3].at = Location::Regrouping;
        // 11.15: isolation first.
        assert_eq!(eliminate_isolated(&r, &mut p), vec![cut]);
        assert_eq!(p.units[cut].at, Location::Regrouping);
        // 11.33: the army leaves the map, its leaders with it.
        let gone = army_leaves_map(&r, &mut p);
        assert_eq!(gone.len(), army.len() + 1);
        assert!(army.iter().all(|&m| p.units[m].at == Location::OffMap));
        assert_eq!(p.leaders[saladin].at, Location::OffMap);
        // 11.32: the unit four hexes from the wall must move back.
        assert!(check_redeployment(&r, &p, Side::Crusader, &[]).is_err());
        assert!(redeploy(
            &r,
            &mut p,
            Piece::Unit(near_wall),
            r.map.hex("1410").unwrap()
        )
        .is_err());
        redeploy(
            &r,
            &mut p,
            Piece::Unit(near_wall),
            r.map.hex("1310").unwrap(),
        )
        .unwrap();
        assert_eq!(check_redeployment(&r, &p, Side::Crusader, &[]), Ok(()));
        assert!(redeploy(&r, &mut p, Piece::Unit(g1), r.map.hex("1310").unwrap()).is_err());
        assert_eq!(check_redeployment(&r, &p, Side::Moslem, &[]), Ok(()));
        // 11.2: the two garrison units pair; one returns at full strength, to be placed.
        let pairs = regroup(&r, &mut p);
        assert_eq!(pairs, vec![(g2, g3)]);
        assert_eq!(p.units[g3].at, Location::Destroyed);
        assert!(!p.units[g2].reduced);
        assert_eq!(awaiting_placement(&r, &p, Side::Moslem, &pairs), vec![g2]);
        assert!(check_redeployment(&r, &p, Side::Moslem, &pairs).is_err());
        redeploy(&r, &mut p, Piece::Unit(g2), r.map.hex("2010").unwrap()).unwrap();
        assert_eq!(check_redeployment(&r, &p, Side::Moslem, &pairs), Ok(()));
        // Siege units are not redeployed.
        assert!(redeploy(&r, &mut p, Piece::Siege(0), r.map.hex("1309").unwrap()).is_err());
    }

    #[test]
    fn only_identical_units_pair() {
        let (r, mut p) = setup();
        for n in [
            "English Men-at-Arms 1",
            "Norman Men-at-Arms 1",
            "Anjou Men-at-Arms 1",
            "German Knights 1",
        ] {
            p.units[r.unit(n).unwrap()].at = Location::Regrouping;
        }
        let pairs = pairs(&r, &p);
        assert_eq!(
            pairs.len(),
            1,
            "English and Norman men-at-arms: both English"
        );
        assert!(!pairable(
            &r,
            r.unit("English Men-at-Arms 1").unwrap(),
            r.unit("Anjou Men-at-Arms 1").unwrap()
        ));
    }
}
