//! Melee combat (10.0): attack and defence strengths with terrain (5.27), leaders' combat
//! bonus (14.3), odds rounded for the defender, the die-roll modifier from leaders' morale
//! (14.2) and army morale (10.5), and the Melee Combat Results Table (10.8). Then what the
//! results do (9.23-9.27, 10.6): disruption, retreat or the garrison's step loss instead,
//! elimination to the Regrouping Box with the leader left to the loss procedure (14.4);
//! enemy leaders and siege engines caught alone (5.12, 9.24, 10.61, 12.13, 12.23, 12.34);
//! and the advance after combat (10.7, with the Addenda to 10.72 and the knights' compulsory
//! advance of 10.74).

use serde::{Deserialize, Serialize};

use crate::leaders;
use crate::map::{MeleeEffect, Nationality};
use crate::position::Location;
use crate::rules::{Army, CombatResult, Rules, Side};

/// One side's strength in a melee, counted in halves so that halving (5.27) is exact.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Strength {
    /// Twice the strength.
    pub halves: u32,
}

/// Acre 14.32: a unit's Melee Strength with a leader's Combat Bonus, never more than doubled.
pub fn with_bonus(melee: u32, bonus: u32) -> u32 {
    melee + bonus.min(melee)
}

/// Acre 5.27: an attacking unit's strength in halves, halved if it attacks out of marsh or
/// the Belus ravine ("Attacker in hex halved").
pub fn attacker_halves(strength: u32, attacker_terrain: MeleeEffect) -> u32 {
    match attacker_terrain {
        MeleeEffect::AttackerHalved => strength,
        _ => strength * 2,
    }
}

/// Acre 5.27: the defender's strength in halves: halved in outerworks and unfilled foss, a
/// Moslem halved in a camp, doubled in a Wall or Tower hex.
pub fn defender_halves(strength: u32, terrain: MeleeEffect, defender: Side) -> u32 {
    match terrain {
        MeleeEffect::DefenderHalved => strength,
        MeleeEffect::MoslemDefenderHalved if defender == Side::Moslem => strength,
        MeleeEffect::DefenderDoubled => strength * 4,
        _ => strength * 2,
    }
}

/// Acre 10.0 procedure and 10.8: the odds column for attack and defence strengths (both in
/// halves), rounded down in favour of the defender; `None` below 1-2 ("no effect"), and
/// above 7-1 read as 7-1. Columns: 0 = 1-2, 1 = 1-1, ..., 7 = 7-1.
pub fn odds_column(attack_halves: u32, defence_halves: u32) -> Option<usize> {
    if defence_halves == 0 {
        return Some(7);
    }
    if attack_halves * 2 < defence_halves {
        return None;
    }
    if attack_halves < defence_halves {
        return Some(0);
    }
    let ratio = attack_halves / defence_halves;
    Some(ratio.min(7) as usize)
}

/// Acre 14.23, 14.24, 10.42 and 10.5: the melee die-roll modifier: the attacker's leader
/// Morale Rating added, the defender's subtracted (at most one leader each), plus the
/// attacker's army morale and minus the defender's, each army counted once (10.57).
pub fn die_modifier(
    attacker_leader_morale: Option<u8>,
    defender_leader_morale: Option<u8>,
    attacker_army_morale: i32,
    defender_army_morale: i32,
) -> i32 {
    attacker_leader_morale.map_or(0, i32::from) - defender_leader_morale.map_or(0, i32::from)
        + attacker_army_morale
        - defender_army_morale
}

/// Acre 10.56, 10.57 and the 10.8 note ("An army's Morale Rating is applied only once for
/// each melee"): the army morale one side brings to a melee. For the Moslems, their single
/// level. For the Crusaders, the lowest level among the nationalities involved: a nationality
/// whose morale has fallen affects every melee it takes part in (10.56), but the Crusader
/// army's morale counts once, so English and French units both at -1 give -1 (10.57).
pub fn army_morale(rules: &Rules, pos: &crate::Position, side: Side, units: &[usize]) -> i32 {
    match side {
        Side::Moslem => pos.morale.moslem,
        Side::Crusader => units
            .iter()
            .filter_map(|&u| rules.contingent_of(u).nationality)
            .map(|n: Nationality| pos.morale.crusader.get(&n).copied().unwrap_or(0))
            .min()
            .unwrap_or(0)
            .min(0),
    }
}

/// Acre 10.8: the result of a melee at `column` with the modified roll (read as 1-6).
pub fn result(rules: &Rules, column: Option<usize>, modified_roll: i32) -> CombatResult {
    match column {
        None => CombatResult::NoEffect,
        Some(c) => rules.tables.melee.get(modified_roll, c),
    }
}

/// Acre 10.31, 10.33: a ladder assault roll succeeds on 3-6, or 4-6 for German knights and
/// leaders.
pub fn mounts_the_wall(roll: u8, german_knight_or_leader: bool) -> bool {
    if german_knight_or_leader {
        roll >= 4
    } else {
        roll >= 3
    }
}

/// Acre 10.3, 10.34, 10.36, 12.15, 8.16 and the Addenda to 10.34: whether a unit attacking
/// the unit in `target` must first mount the wall by ladder (`Ok(true)`), may attack without
/// (`Ok(false)`), or may not attack at all (`Err`). Ladders are needed against an unbreached
/// Wall or Tower hex, except from a Wall or Tower hex or with a friendly siege tower; they
/// are climbed only from Clear, filled foss or Acre street hexes, and never by cavalry.
pub fn ladder_needed(
    rules: &Rules,
    pos: &crate::Position,
    attacker: usize,
    target: hexgrid::Hex,
) -> Result<bool, String> {
    use crate::map::Class;
    let at = pos
        .hex_of(attacker)
        .ok_or("the attacker is not on the map")?;
    if !at.is_adjacent(target) {
        return Err("melee attacks an adjacent hex (10.13)".into());
    }
    let side = rules.side_of(attacker);
    if !pos.unbreached_wall(rules, target)
        || rules.map.is_wall_or_tower(at)
        || pos.siege_tower_at(rules, at, side)
    {
        return Ok(false);
    }
    if rules.unit_type(attacker).cavalry {
        return Err("cavalry may not make ladder assaults (10.36, 15.13)".into());
    }
    let from = rules.map.class(at);
    let filled = from == Class::Foss && !pos.unfilled_foss(rules, at);
    if matches!(from, Class::Clear | Class::Street) || filled {
        Ok(true)
    } else {
        Err(format!(
            "ladder assaults are made only from Clear, filled foss or street hexes, not from {} (10.34)",
            rules.map.terrain(at).name
        ))
    }
}

/// Acre 10.33: a German leader (one leading a German contingent) fails to mount a wall on
/// 1-3, as German knights do.
pub fn german_leader(rules: &Rules, leader: usize) -> bool {
    rules
        .contingents
        .iter()
        .any(|c| c.leader == leader && c.nationality == Some(Nationality::German))
}

/// Acre 10.32, 10.34 and the Addenda to 10.34: whether an attacking leader must climb by
/// ladder to lend his Combat Bonus or Morale Rating to a melee on the unit in `target`:
/// `Ok(false)` if he need not (the target is not an unbreached Wall or Tower hex, or he
/// stands in a Wall or Tower hex or with a friendly siege unit), `Ok(true)` if he must and
/// may (next to the target, in a Clear, filled foss or street hex), `Err` if he cannot lend
/// them at all. A breached wall asks no ladder of the units (10.3), nor of their leaders
/// (rules-notes).
pub fn leader_ladder_needed(
    rules: &Rules,
    pos: &crate::Position,
    leader: usize,
    target: hexgrid::Hex,
) -> Result<bool, String> {
    use crate::map::Class;
    let name = &rules.leaders[leader].name;
    let at = leaders::leader_hex(pos, leader).ok_or_else(|| format!("{name} is not on the map"))?;
    if !pos.unbreached_wall(rules, target) || rules.map.is_wall_or_tower(at) {
        return Ok(false);
    }
    let side = rules.leaders[leader].side;
    if pos
        .siege_at(at)
        .is_some_and(|e| rules.siege[e].side == side)
    {
        return Ok(false);
    }
    let from = rules.map.class(at);
    let filled = from == Class::Foss && !pos.unfilled_foss(rules, at);
    if at.is_adjacent(target) && (matches!(from, Class::Clear | Class::Street) || filled) {
        Ok(true)
    } else {
        Err(format!(
            "{name} is neither on the walls, with a siege unit, nor placed to climb a ladder to {} (10.32, 10.34)",
            rules.map.id(target)
        ))
    }
}

/// Acre 10.0, 10.14, 10.41, 14.32, 5.27: the attack and defence strengths of a melee, in
/// halves: each attacker's Melee Strength with its own leader's Combat Bonus (never more than
/// doubled), halved if it stands in marsh or the ravine, doubled if charging (15.21); the
/// defender's likewise with the effect of its hex. Disrupted units defend with their
/// strength (3.31).
pub fn strengths(
    rules: &Rules,
    pos: &crate::Position,
    attackers: &[usize],
    charging: &[usize],
    defender: usize,
    conrad: bool,
) -> (u32, u32) {
    let attack: u32 = attackers
        .iter()
        .map(|&u| {
            let base = with_bonus(
                pos.melee_strength(rules, u),
                crate::leaders::combat_bonus(rules, pos, u, conrad),
            );
            let base = if charging.contains(&u) {
                crate::cavalry::charge_strength(base)
            } else {
                base
            };
            let terrain = pos
                .hex_of(u)
                .map_or(MeleeEffect::None, |h| pos.effects(rules, h).melee);
            attacker_halves(base, terrain)
        })
        .sum();
    let d = with_bonus(
        pos.melee_strength(rules, defender),
        crate::leaders::combat_bonus(rules, pos, defender, conrad),
    );
    let terrain = pos
        .hex_of(defender)
        .map_or(MeleeEffect::None, |h| pos.effects(rules, h).melee);
    (attack, defender_halves(d, terrain, rules.side_of(defender)))
}

/// Acre 10.51: the first time an off-map army unit moves or retreats into Acre (its walls
/// included), the Moslem Army Morale Level rises by one.
pub fn army_unit_entered_acre(pos: &mut crate::Position) -> bool {
    let first = !pos.morale.army_entered_acre;
    if first {
        pos.morale.army_entered_acre = true;
        pos.morale.moslem += 1;
    }
    first
}

/// Acre 10.52: when the thirtieth Moslem army unit (not garrison) goes to the Regrouping
/// Box, the Moslem Army Morale Level falls by one.
pub fn army_unit_eliminated(pos: &mut crate::Position) -> bool {
    /// Acre 10.52: army losses that lower Moslem morale.
    const LOSSES: u32 = 30;
    pos.morale.army_losses += 1;
    let falls = pos.morale.army_losses == LOSSES;
    if falls {
        pos.morale.moslem -= 1;
    }
    falls
}

/// Acre 10.53-10.55, 10.58 and the 10.8 morale note: a King or the German leader killed
/// lowers his own nationality's Army Morale Level by one, for good. With the 16.0 option
/// Conrad is King of Jerusalem ([`crate::leaders::morale_lost_on_death`]). Returns the
/// nationality affected.
pub fn leader_killed(
    rules: &Rules,
    pos: &mut crate::Position,
    leader: usize,
    conrad: bool,
) -> Option<Nationality> {
    let nation = crate::leaders::morale_lost_on_death(rules, leader, conrad)?;
    *pos.morale.crusader.entry(nation).or_insert(0) -= 1;
    Some(nation)
}

/// What a combat result did to a unit, and what the players must do next (9.23-9.27, 10.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Applied {
    /// Nothing.
    NoEffect,
    /// Disrupted (9.23).
    Disrupted,
    /// It must retreat ([`crate::retreat::start`]); a full-strength garrison unit on an
    /// unbreached wall may take a step loss and stay instead ([`take_step_instead`], 9.27).
    Retreat {
        /// The Moslem may choose the step loss instead.
        step_loss_allowed: bool,
    },
    /// A full-strength garrison unit lost a step and stays where it is (9.27).
    Reduced,
    /// Placed in the Regrouping Box (9.27); the friendly leader who was in its hex, if any,
    /// must undergo the leader loss procedure (9.22, 14.4: [`crate::leaders::roll_leader_loss`],
    /// [`crate::leaders::apply_fate`]).
    Eliminated {
        /// The leader left in the hex.
        leader: Option<usize>,
    },
}

/// Acre 9.27, 10.52, 11.15: eliminates a combat unit: into the Regrouping Box, no longer
/// disrupted; a Moslem army unit counts toward the thirty losses of 10.52. Returns the
/// friendly leader in its hex, who must undergo the leader loss procedure (9.22, 14.4).
pub fn eliminate(rules: &Rules, pos: &mut crate::Position, unit: usize) -> Option<usize> {
    let leader = crate::leaders::leader_with(rules, pos, unit);
    if matches!(
        pos.units[unit].at,
        Location::Regrouping | Location::Destroyed
    ) {
        return None;
    }
    let state = &mut pos.units[unit];
    state.at = Location::Regrouping;
    state.disrupted = false;
    let army = rules.contingent_of(unit).army;
    if rules.side_of(unit) == Side::Moslem && army.is_some_and(|a| a != Army::Garrison) {
        army_unit_eliminated(pos);
    }
    leader
}

/// Acre 9.27: whether a garrison unit has two steps (it is printed with a reduced back).
fn two_steps(rules: &Rules, unit: usize) -> bool {
    rules.units[unit].reduced.is_some()
}

/// Acre 9.27: whether a unit given a retreat may take a step loss and stay instead: a
/// full-strength garrison unit in an unbreached Wall or Tower hex.
pub fn may_take_step_instead(rules: &Rules, pos: &crate::Position, unit: usize) -> bool {
    two_steps(rules, unit)
        && !pos.units[unit].reduced
        && pos
            .hex_of(unit)
            .is_some_and(|h| pos.unbreached_wall(rules, h))
}

/// Acre 9.27: the Moslem elects the step loss instead of the retreat: the unit is flipped to
/// its reduced side and stays in place.
pub fn take_step_instead(
    rules: &Rules,
    pos: &mut crate::Position,
    unit: usize,
) -> Result<(), String> {
    if !may_take_step_instead(rules, pos, unit) {
        return Err(format!(
            "{} may not take a step loss instead of retreating: only a full-strength garrison unit on an unbreached wall (9.27)",
            rules.units[unit].name
        ));
    }
    pos.units[unit].reduced = true;
    Ok(())
}

/// Acre 9.23, 9.24, 9.27, 10.6, 10.62, 10.63, 10.64 and the Addenda to 9.23: applies a fire or
/// melee result to a combat unit. D disrupts, or makes a unit already disrupted retreat; R makes it
/// retreat (the retreat itself is [`crate::retreat`]'s); E eliminates it, except that a
/// full-strength garrison unit is reduced a step and stays. A garrison unit already reduced is
/// "removed from play" into the Regrouping Box, where 11.2 may pair it and return it at full
/// strength (rules-notes).
pub fn apply_result(
    rules: &Rules,
    pos: &mut crate::Position,
    unit: usize,
    result: CombatResult,
) -> Applied {
    let retreat = |pos: &crate::Position| Applied::Retreat {
        step_loss_allowed: may_take_step_instead(rules, pos, unit),
    };
    match result {
        CombatResult::NoEffect => Applied::NoEffect,
        CombatResult::Disrupted if pos.units[unit].disrupted => retreat(pos),
        CombatResult::Disrupted => {
            pos.units[unit].disrupted = true;
            Applied::Disrupted
        }
        CombatResult::Retreat => retreat(pos),
        CombatResult::Eliminated if two_steps(rules, unit) && !pos.units[unit].reduced => {
            pos.units[unit].reduced = true;
            Applied::Reduced
        }
        CombatResult::Eliminated => Applied::Eliminated {
            leader: eliminate(rules, pos, unit),
        },
    }
}

/// What a combat unit did to enemy leaders and siege engines it caught alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Overrun {
    /// An enemy leader killed (5.12, 9.24, 10.61, 14.33), and the nationality whose morale
    /// fell for it (10.53-10.55).
    LeaderKilled {
        /// The leader.
        leader: usize,
        /// The nationality whose Army Morale Level fell.
        morale: Option<Nationality>,
    },
    /// An enemy siege engine damaged or destroyed (12.13, 12.23, 12.34).
    Engine {
        /// The siege unit.
        siege: usize,
        /// Damaged until when, or destroyed.
        loss: crate::bombardment::SiegeLoss,
    },
}

/// Acre 5.12, 9.24, 10.61, 12.13, 12.17, 12.23, 12.24, 12.34, 14.33: a combat unit of `by`
/// enters `hex` (moving into or through it, retreating or advancing) or attacks it in melee
/// on Game-Turn `turn`. If no enemy combat unit is there, an enemy leader there is
/// eliminated (killed) and an enemy siege engine damaged (siege tower, giant catapult) or
/// destroyed (small catapult, ballista). Call it for every hex a combat unit enters and for
/// every melee attack on a hex without an enemy combat unit.
pub fn overrun(
    rules: &Rules,
    pos: &mut crate::Position,
    hex: hexgrid::Hex,
    by: Side,
    turn: u8,
    conrad: bool,
) -> Vec<Overrun> {
    let mut out = Vec::new();
    // Nothing to overrun without an enemy leader or siege unit there (the few leaders and
    // siege units looked through before the many combat units).
    let enemy_leader = pos
        .leader_at(hex)
        .is_some_and(|l| rules.leaders[l].side != by);
    let enemy_siege = pos.siege_at(hex).is_some_and(|s| rules.siege[s].side != by);
    if !enemy_leader && !enemy_siege {
        return out;
    }
    if pos.side_at(rules, hex) == Some(by.enemy()) {
        return out;
    }
    if let Some(l) = pos.leader_at(hex).filter(|&l| rules.leaders[l].side != by) {
        let morale = crate::leaders::kill(rules, pos, l, conrad);
        out.push(Overrun::LeaderKilled { leader: l, morale });
    }
    if let Some(s) = pos.siege_at(hex).filter(|&s| rules.siege[s].side != by) {
        if let Some(loss) = crate::bombardment::damage_engine(rules, pos, s, turn) {
            out.push(Overrun::Engine { siege: s, loss });
        }
    }
    out
}

/// Something that advances after a melee (10.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Advancer {
    /// An attacking combat unit.
    Unit(usize),
    /// A leader stacked with an attacking combat unit (Addenda to 10.72).
    Leader(usize),
}

/// How a melee's defender left its hex, for the advance after combat (10.7).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vacated {
    /// The defender was eliminated (10.71) rather than retreated (10.72, 10.24).
    pub eliminated: bool,
    /// The Path of Retreat (10.72): the hex the defender vacated, then every hex it
    /// retreated through, in order. For an elimination, the vacated hex alone.
    pub path: Vec<hexgrid::Hex>,
}

/// Acre 10.72, 10.73, 5.27, 15.14: how many hexes of the path a piece may enter, in order,
/// up to its Movement Allowance: never a hex with an enemy combat unit or prohibited
/// terrain (marsh for cavalry), nor beyond it; never an enemy-controlled Wall or Tower hex
/// other than the hex its side attacked (10.73); a leader never into an enemy leader or
/// siege unit (5.12). Zones of control are otherwise disregarded.
fn reach(rules: &Rules, pos: &crate::Position, who: Advancer, path: &[hexgrid::Hex]) -> usize {
    let (side, allowance, cavalry) = match who {
        Advancer::Unit(u) => (
            rules.side_of(u),
            rules.units[u].movement as usize,
            rules.unit_type(u).cavalry,
        ),
        Advancer::Leader(l) => (
            rules.leaders[l].side,
            rules.leaders[l].movement as usize,
            false,
        ),
    };
    let mut n = 0;
    for (i, &h) in path.iter().enumerate().take(allowance) {
        let enemy_unit = pos.side_at(rules, h) == Some(side.enemy());
        let prohibited = pos.effects(rules, h).cost.is_none()
            || (cavalry && rules.map.class(h) == crate::map::Class::Marsh)
            || (i > 0 && rules.map.all_sea_between(path[i - 1], h));
        let walled = i > 0
            && rules.map.is_wall_or_tower(h)
            && crate::zoc::controlled(rules, pos, h, side.enemy());
        let leader_barred = matches!(who, Advancer::Leader(_))
            && (pos
                .leader_at(h)
                .is_some_and(|l| rules.leaders[l].side != side)
                || pos.siege_at(h).is_some_and(|s| rules.siege[s].side != side));
        if enemy_unit || prohibited || walled || leader_barred {
            break;
        }
        n = i + 1;
    }
    n
}

/// Acre 10.71-10.74, the Addenda to 10.72, 10.24, 5.51, 5.52: checks and makes an advance
/// after a melee on Game-Turn `turn`. `attackers` are the combat units that took part in
/// the attack; `moves` pairs each advancing piece with how many hexes of the Path of Retreat
/// it enters, in order from the vacated hex. After an elimination (10.71) one attacking unit
/// and one leader may enter the vacated hex; after a retreat (10.72, or a retreat before
/// combat, 10.24) any attackers may follow the path up to their Movement Allowance. A leader
/// may advance only if he stands with an attacking combat unit (Addenda to 10.72). Crusader
/// knights must advance as far as they can (10.74): every hex of the path a knight could
/// still reach beyond where it stops, short of the first outerworks hex, must be taken by
/// another advancing unit. Enemy leaders and engines met on the way are overrun
/// ([`overrun`]); an army unit entering Acre raises Moslem morale (10.51). Nothing changes
/// if the advance is refused.
pub fn advance(
    rules: &Rules,
    pos: &mut crate::Position,
    attackers: &[usize],
    vacated: &Vacated,
    moves: &[(Advancer, usize)],
    turn: u8,
    conrad: bool,
) -> Result<Vec<Overrun>, String> {
    let (next, overruns) = advanced(
        rules, pos, attackers, vacated, moves, turn, conrad, attackers,
    )?;
    *pos = next;
    Ok(overruns)
}

/// Acre 10.7: checks an advance after combat chosen piece by piece: everything [`advance`]
/// checks, with 10.74's "as far as possible" asked only of the knights among `moves` (a
/// knight not yet advanced may still be; one that has advanced must have gone as far as it
/// could). What [`advance`] accepts at the end is reached by adding moves this accepts.
pub fn check_advance_so_far(
    rules: &Rules,
    pos: &crate::Position,
    attackers: &[usize],
    vacated: &Vacated,
    moves: &[(Advancer, usize)],
    turn: u8,
    conrad: bool,
) -> Result<(), String> {
    let moved: Vec<usize> = moves
        .iter()
        .filter_map(|(w, _)| match w {
            Advancer::Unit(u) => Some(*u),
            Advancer::Leader(_) => None,
        })
        .collect();
    advanced(rules, pos, attackers, vacated, moves, turn, conrad, &moved).map(|_| ())
}

/// [`advance`] on a copy of the position, with 10.74 asked of the knights among `knights`.
#[allow(clippy::too_many_arguments)]
fn advanced(
    rules: &Rules,
    pos: &crate::Position,
    attackers: &[usize],
    vacated: &Vacated,
    moves: &[(Advancer, usize)],
    turn: u8,
    conrad: bool,
    knights: &[usize],
) -> Result<(crate::Position, Vec<Overrun>), String> {
    let path = &vacated.path;
    let Some(&first) = attackers.first() else {
        return Err("an advance after combat needs the attacking units (10.7)".into());
    };
    let side = rules.side_of(first);
    if path.is_empty() || (vacated.eliminated && path.len() != 1) {
        return Err("the Path of Retreat starts with the vacated hex; after an elimination it is that hex alone (10.71, 10.72)".into());
    }
    let mut seen = Vec::new();
    for &(who, n) in moves {
        if seen.contains(&who) {
            return Err("each piece advances once (10.7)".into());
        }
        seen.push(who);
        if n == 0 {
            return Err("an advance enters at least the vacated hex (10.7)".into());
        }
        match who {
            Advancer::Unit(u) if !attackers.contains(&u) => {
                return Err(format!(
                    "{} did not take part in the attack and may not advance (10.71, 10.72)",
                    rules.units[u].name
                ))
            }
            Advancer::Leader(l) => {
                let with_attacker = attackers.iter().any(|&u| {
                    pos.hex_of(u).is_some() && pos.hex_of(u) == leaders::leader_hex(pos, l)
                });
                if rules.leaders[l].side != side || !with_attacker {
                    return Err(format!(
                        "{} may advance only stacked with a combat unit that took part in the attack (Addenda to 10.72)",
                        rules.leaders[l].name
                    ));
                }
            }
            Advancer::Unit(_) => {}
        }
    }
    if vacated.eliminated {
        let units = moves
            .iter()
            .filter(|(w, _)| matches!(w, Advancer::Unit(_)))
            .count();
        if units > 1 || moves.len() - units > 1 {
            return Err(
                "after an elimination one attacking unit and one leader may advance (10.71)".into(),
            );
        }
    }
    let mut next = pos.clone();
    let mut overruns = Vec::new();
    // Combat units first, then leaders, who may follow where the units cleared the way.
    let mut order: Vec<(Advancer, usize)> = moves.to_vec();
    order.sort_by_key(|(w, _)| matches!(w, Advancer::Leader(_)));
    for &(who, n) in &order {
        let can = reach(rules, &next, who, path);
        if n > can {
            let name = match who {
                Advancer::Unit(u) => &rules.units[u].name,
                Advancer::Leader(l) => &rules.leaders[l].name,
            };
            return Err(format!(
                "{name} may advance at most {can} hexes along the Path of Retreat here (10.72, 10.73)"
            ));
        }
        if let Advancer::Unit(u) = who {
            for &h in &path[..n] {
                overruns.extend(overrun(rules, &mut next, h, side, turn, conrad));
                if side == Side::Moslem
                    && rules.map.in_acre(h)
                    && rules
                        .contingent_of(u)
                        .army
                        .is_some_and(|a| a != Army::Garrison)
                {
                    army_unit_entered_acre(&mut next);
                }
            }
        }
    }
    for &(who, n) in &order {
        let end = Location::Map(path[n - 1]);
        match who {
            Advancer::Unit(u) => next.units[u].at = end,
            Advancer::Leader(l) => next.leaders[l].at = end,
        }
    }
    for &h in path {
        let units = (0..rules.units.len())
            .filter(|&u| next.units[u].at == Location::Map(h))
            .count();
        let leaders = (0..rules.leaders.len())
            .filter(|&l| next.leaders[l].at == Location::Map(h))
            .count();
        if units > 1 || leaders > 1 {
            return Err(format!(
                "one combat unit and one leader at most may end in {} (5.51, 5.52)",
                rules.map.id(h)
            ));
        }
    }
    // 10.74: knights advance as far as possible, short of the outerworks.
    for &u in attackers.iter().filter(|u| knights.contains(u)) {
        if rules.side_of(u) != Side::Crusader || !rules.unit_type(u).knight {
            continue;
        }
        let went = moves
            .iter()
            .find(|(w, _)| *w == Advancer::Unit(u))
            .map_or(0, |(_, n)| *n);
        let before_outerworks = path
            .iter()
            .position(|&h| rules.map.class(h) == crate::map::Class::Outerworks)
            .unwrap_or(path.len());
        let must = reach(rules, pos, Advancer::Unit(u), path).min(before_outerworks);
        for &h in path.iter().take(must).skip(went) {
            if next.unit_at(h).is_none() {
                return Err(format!(
                    "{} must advance as far as possible along the Path of Retreat: {} is free (10.74)",
                    rules.units[u].name,
                    rules.map.id(h)
                ));
            }
        }
    }
    Ok((next, overruns))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{put, setup};
    use hexgrid::Hex;

    fn hexes(r: &Rules, ids: &[&str]) -> Vec<Hex> {
        ids.iter().map(|i| r.map.hex(i).unwrap()).collect()
    }

    #[test]
    fn results_disrupt_retreat_and_eliminate() {
        let (r, mut p) = setup();
        let t = put(&r, &mut p, "Taqi Spearmen 1", "1415");
        // 9.23: a second disruption is a retreat.
        assert_eq!(
            apply_result(&r, &mut p, t, CombatResult::Disrupted),
            Applied::Disrupted
        );
        assert_eq!(
            apply_result(&r, &mut p, t, CombatResult::Disrupted),
            Applied::Retreat {
                step_loss_allowed: false
            }
        );
        // 9.27, 10.52: an army unit eliminated goes to the Box and counts toward the thirty.
        let taqi = r.leader("Taqi").unwrap();
        p.leaders[taqi].at = Location::Map(r.map.hex("1415").unwrap());
        assert_eq!(
            apply_result(&r, &mut p, t, CombatResult::Eliminated),
            Applied::Eliminated { leader: Some(taqi) }
        );
        assert_eq!(p.units[t].at, Location::Regrouping);
        assert!(!p.units[t].disrupted);
        assert_eq!(p.morale.army_losses, 1);
        // A Crusader unit's elimination counts nothing for 10.52.
        let e = put(&r, &mut p, "English Men-at-Arms 1", "1414");
        assert_eq!(
            apply_result(&r, &mut p, e, CombatResult::Eliminated),
            Applied::Eliminated { leader: None }
        );
        assert_eq!(p.morale.army_losses, 1);
    }

    #[test]
    fn garrison_units_have_two_steps_and_may_hold_the_wall() {
        let (r, mut p) = setup();
        let g = put(&r, &mut p, "Mashtub Spearmen 1", "1811");
        // 9.27: full strength on an unbreached wall may take the step instead of retreating.
        assert_eq!(
            apply_result(&r, &mut p, g, CombatResult::Retreat),
            Applied::Retreat {
                step_loss_allowed: true
            }
        );
        take_step_instead(&r, &mut p, g).unwrap();
        assert!(p.units[g].reduced);
        assert_eq!(p.melee_strength(&r, g), 3);
        assert_eq!(p.hex_of(g), r.map.hex("1811"));
        // Reduced: no second step instead of a retreat.
        assert!(take_step_instead(&r, &mut p, g).is_err());
        // A breached wall must be left.
        let q = put(&r, &mut p, "Mashtub Spearmen 2", "1813");
        p.damage.insert(r.map.hex("1813").unwrap(), 6);
        assert_eq!(
            apply_result(&r, &mut p, q, CombatResult::Retreat),
            Applied::Retreat {
                step_loss_allowed: false
            }
        );
        // E flips a full-strength garrison unit in place, then removes it to the Box.
        assert_eq!(
            apply_result(&r, &mut p, q, CombatResult::Eliminated),
            Applied::Reduced
        );
        assert_eq!(p.hex_of(q), r.map.hex("1813"));
        assert!(matches!(
            apply_result(&r, &mut p, q, CombatResult::Eliminated),
            Applied::Eliminated { .. }
        ));
        assert_eq!(p.units[q].at, Location::Regrouping);
        assert_eq!(
            p.morale.army_losses, 0,
            "garrison losses are not army losses (10.52)"
        );
        // Street units may not hold instead of retreating.
        let s = put(&r, &mut p, "Mashtub Spearmen 3", "2010");
        assert!(!may_take_step_instead(&r, &p, s));
    }

    #[test]
    fn leaders_and_engines_caught_alone_are_overrun() {
        let (r, mut p) = setup();
        let h = r.map.hex("1416").unwrap();
        let tower = r
            .siege
            .iter()
            .position(|s| s.name == "Siege Tower 1")
            .unwrap();
        let richard = r.leader("Richard").unwrap();
        p.siege[tower].at = Location::Map(h);
        p.leaders[richard].at = Location::Map(h);
        // Guarded by a Crusader combat unit: nothing happens.
        let e = put(&r, &mut p, "English Men-at-Arms 1", "1416");
        assert!(overrun(&r, &mut p, h, Side::Moslem, 3, false).is_empty());
        p.units[e].at = Location::OffMap;
        let out = overrun(&r, &mut p, h, Side::Moslem, 3, false);
        assert_eq!(
            out,
            vec![
                Overrun::LeaderKilled {
                    leader: richard,
                    morale: Some(Nationality::English)
                },
                Overrun::Engine {
                    siege: tower,
                    loss: crate::bombardment::SiegeLoss::Damaged { returns_on: 6 }
                },
            ]
        );
        assert!(p.leaders[richard].dead);
        assert_eq!(p.morale.crusader[&Nationality::English], -1);
        assert_eq!(p.siege[tower].at, Location::OffMap);
        // Friendly pieces are never overrun.
        let cat = r.siege.iter().position(|s| s.name == "Ballista 1").unwrap();
        p.siege[cat].at = Location::Map(h);
        assert!(overrun(&r, &mut p, h, Side::Crusader, 3, false).is_empty());
    }

    #[test]
    fn advance_after_an_elimination_is_one_unit_and_one_leader() {
        let (r, mut p) = setup();
        let a = put(&r, &mut p, "English Men-at-Arms 1", "1414");
        let b = put(&r, &mut p, "English Men-at-Arms 2", "1314");
        let richard = r.leader("Richard").unwrap();
        p.leaders[richard].at = Location::Map(r.map.hex("1314").unwrap());
        let vacated = Vacated {
            eliminated: true,
            path: hexes(&r, &["1415"]),
        };
        let two = [(Advancer::Unit(a), 1), (Advancer::Unit(b), 1)];
        assert!(advance(&r, &mut p, &[a, b], &vacated, &two, 1, false).is_err());
        // 10.71 with the Addenda to 10.72: the leader stacked with an attacker may go.
        let one = [(Advancer::Unit(a), 1), (Advancer::Leader(richard), 1)];
        advance(&r, &mut p, &[a, b], &vacated, &one, 1, false).unwrap();
        assert_eq!(p.hex_of(a), r.map.hex("1415"));
        assert_eq!(
            p.leaders[richard].at,
            Location::Map(r.map.hex("1415").unwrap())
        );
        // A leader not stacked with an attacking unit may not advance.
        let (r, mut p) = setup();
        let a = put(&r, &mut p, "English Men-at-Arms 1", "1414");
        p.leaders[richard].at = Location::Map(r.map.hex("1314").unwrap());
        let lone = [(Advancer::Leader(richard), 1)];
        assert!(advance(&r, &mut p, &[a], &vacated, &lone, 1, false).is_err());
        assert_eq!(
            p.leaders[richard].at,
            Location::Map(r.map.hex("1314").unwrap())
        );
        // A non-attacker may not advance.
        let other = put(&r, &mut p, "English Men-at-Arms 3", "1313");
        let wrong = [(Advancer::Unit(other), 1)];
        assert!(advance(&r, &mut p, &[a], &vacated, &wrong, 1, false).is_err());
    }

    /// Whether `unit` alone may advance `steps` hexes along `vacated`'s path, tried on a copy.
    fn may_advance(
        r: &Rules,
        p: &crate::Position,
        unit: usize,
        vacated: &Vacated,
        steps: usize,
    ) -> bool {
        let mut q = p.clone();
        advance(
            r,
            &mut q,
            &[unit],
            vacated,
            &[(Advancer::Unit(unit), steps)],
            1,
            false,
        )
        .is_ok()
    }

    #[test]
    fn advance_along_the_path_of_retreat_up_to_the_movement_allowance() {
        let (r, mut p) = setup();
        let m = put(&r, &mut p, "English Men-at-Arms 1", "1414");
        let d = put(&r, &mut p, "Taqi Spearmen 1", "1421");
        let vacated = Vacated {
            eliminated: false,
            path: hexes(
                &r,
                &["1415", "1416", "1417", "1418", "1419", "1420", "1421"],
            ),
        };
        // Men-at-arms move 4: the fifth hex is too far.
        assert!(!may_advance(&r, &p, m, &vacated, 5));
        let before = p.clone();
        advance(
            &r,
            &mut p,
            &[m],
            &vacated,
            &[(Advancer::Unit(m), 4)],
            1,
            false,
        )
        .unwrap();
        assert_eq!(p.hex_of(m), r.map.hex("1418"));
        // Never into the retreated enemy.
        let mut p = before;
        p.units[d].at = Location::Map(r.map.hex("1417").unwrap());
        assert!(!may_advance(&r, &p, m, &vacated, 3));
        assert!(may_advance(&r, &p, m, &vacated, 2));
    }

    #[test]
    fn knights_must_advance_as_far_as_they_can() {
        let (r, mut p) = setup();
        let k = put(&r, &mut p, "English Knight Cavalry 1", "1414");
        let m = put(&r, &mut p, "English Men-at-Arms 1", "1314");
        put(&r, &mut p, "Taqi Spearmen 1", "1421");
        let vacated = Vacated {
            eliminated: false,
            path: hexes(
                &r,
                &["1415", "1416", "1417", "1418", "1419", "1420", "1421"],
            ),
        };
        let attackers = [k, m];
        let try_it = |p: &crate::Position, moves: &[(Advancer, usize)]| {
            let mut q = p.clone();
            advance(&r, &mut q, &attackers, &vacated, moves, 1, false)
        };
        // 10.74: held back, or stopped short of a free hex it could reach: refused.
        assert!(try_it(&p, &[(Advancer::Unit(m), 4)]).is_err());
        assert!(try_it(&p, &[(Advancer::Unit(k), 5)]).is_err());
        // The farthest hex it can reach is 1420 (the enemy stands in 1421).
        assert!(try_it(&p, &[(Advancer::Unit(k), 6)]).is_ok());
        // Another unit ahead of it takes the hexes beyond: the knight goes as far as it can.
        let mut q = p.clone();
        let vac2 = Vacated {
            eliminated: false,
            path: hexes(&r, &["1415", "1416", "1417", "1418", "1419"]),
        };
        put(&r, &mut q, "Taqi Spearmen 2", "1419");
        let mut q2 = q.clone();
        assert!(advance(
            &r,
            &mut q2,
            &attackers,
            &vac2,
            &[(Advancer::Unit(k), 3), (Advancer::Unit(m), 4)],
            1,
            false
        )
        .is_ok());
        let mut q3 = q.clone();
        assert!(advance(
            &r,
            &mut q3,
            &attackers,
            &vac2,
            &[(Advancer::Unit(k), 2), (Advancer::Unit(m), 4)],
            1,
            false
        )
        .is_err());
    }

    #[test]
    fn knights_need_not_advance_into_the_outerworks() {
        let (r, mut p) = setup();
        let k = put(&r, &mut p, "Hospitaller Knights 1", "1022");
        put(&r, &mut p, "Taqi Spearmen 1", "1027");
        let vacated = Vacated {
            eliminated: false,
            path: hexes(&r, &["1023", "1024", "1025", "1026", "1027"]),
        };
        assert_eq!(r.map.class(vacated.path[2]), crate::map::Class::Outerworks);
        assert!(!may_advance(&r, &p, k, &vacated, 1));
        assert!(may_advance(&r, &p, k, &vacated, 2));
        assert!(may_advance(&r, &p, k, &vacated, 4));
    }

    #[test]
    fn no_advance_onto_an_enemy_controlled_wall_not_attacked() {
        let (r, mut p) = setup();
        let m = put(&r, &mut p, "English Men-at-Arms 1", "2011");
        put(&r, &mut p, "Mashtub Spearmen 1", "1810");
        put(&r, &mut p, "Mashtub Spearmen 2", "1711");
        let vacated = Vacated {
            eliminated: false,
            path: hexes(&r, &["1911", "1811", "1711"]),
        };
        assert!(crate::zoc::controlled(
            &r,
            &p,
            vacated.path[1],
            Side::Moslem
        ));
        assert!(!may_advance(&r, &p, m, &vacated, 2));
        assert!(may_advance(&r, &p, m, &vacated, 1));
    }

    #[test]
    fn an_advance_into_the_vacated_wall_destroys_a_lone_catapult() {
        let (r, mut p) = setup();
        let m = put(&r, &mut p, "English Men-at-Arms 1", "1711");
        p.filled.insert(r.map.hex("1711").unwrap());
        let cat = r
            .siege
            .iter()
            .position(|s| s.name == "Moslem Small Catapult 1")
            .unwrap();
        p.siege[cat].at = Location::Map(r.map.hex("1811").unwrap());
        let vacated = Vacated {
            eliminated: true,
            path: hexes(&r, &["1811"]),
        };
        let out = advance(
            &r,
            &mut p,
            &[m],
            &vacated,
            &[(Advancer::Unit(m), 1)],
            2,
            false,
        )
        .unwrap();
        assert_eq!(
            out,
            vec![Overrun::Engine {
                siege: cat,
                loss: crate::bombardment::SiegeLoss::Destroyed
            }]
        );
        assert_eq!(p.siege[cat].at, Location::Destroyed);
    }

    #[test]
    fn odds_round_down_for_the_defender() {
        // 10.0: the ratio is simplified, rounding down in favour of the defender.
        assert_eq!(odds_column(2 * 11, 2 * 4), Some(2)); // 11-4 is 2-1
        assert_eq!(odds_column(2 * 8, 2 * 8), Some(1)); // 1-1
        assert_eq!(odds_column(2 * 7, 2 * 8), Some(0)); // 7-8 is 1-2
        assert_eq!(odds_column(2 * 4, 2 * 8), Some(0)); // exactly 1-2
        assert_eq!(odds_column(2 * 3, 2 * 8), None); // under 1-2: no effect
        assert_eq!(odds_column(2 * 40, 2 * 4), Some(7)); // 10-1 read as 7-1
    }

    #[test]
    fn a_bonus_never_more_than_doubles() {
        // 14.32.
        assert_eq!(with_bonus(6, 4), 10);
        assert_eq!(with_bonus(2, 4), 4);
        assert_eq!(with_bonus(1, 3), 2);
    }

    #[test]
    fn terrain_halves_and_doubles() {
        assert_eq!(
            defender_halves(6, MeleeEffect::DefenderDoubled, Side::Moslem),
            24
        );
        assert_eq!(
            defender_halves(6, MeleeEffect::MoslemDefenderHalved, Side::Moslem),
            6
        );
        assert_eq!(
            defender_halves(6, MeleeEffect::MoslemDefenderHalved, Side::Crusader),
            12
        );
        assert_eq!(
            defender_halves(5, MeleeEffect::DefenderHalved, Side::Crusader),
            5
        );
        assert_eq!(attacker_halves(5, MeleeEffect::AttackerHalved), 5);
        // 5 halved against 5 halved is 1-1, exactly.
        assert_eq!(odds_column(5, 5), Some(1));
    }

    #[test]
    fn ladders_fail_on_one_or_two_and_german_knights_also_on_three() {
        assert!(!mounts_the_wall(2, false));
        assert!(mounts_the_wall(3, false));
        assert!(!mounts_the_wall(3, true));
        assert!(mounts_the_wall(4, true));
    }
}
