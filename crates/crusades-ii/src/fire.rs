//! 9.1 Fire Combat and 9.2 Line of Sight: who may fire at what, the Range Table, the Fire
//! Table with its modifiers, and the results.

use engine::{Event, Log, Modifier, RollRecord, Seat};
use hexgrid::{line_between, Arc, Hex, LosCell};

use crate::morale::CheckKind;
use crate::scenario::{CombatResult, UnitId};
use crate::state::{Fury, Phase, State};

/// The farthest the Range Table reaches (9.11: six hexes).
const MAX_RANGE: i32 = 6;

/// The cells of [`line_between`] the origin and each hex within [`MAX_RANGE`] of it, by the
/// hex's offset (`(q + MAX_RANGE) * (2 * MAX_RANGE + 1) + r + MAX_RANGE`). A line depends
/// only on where its end lies from its start (its cells move with both ends: the arithmetic is
/// on differences, and the order of hexes is kept by a move), so one table serves every firer.
/// Worked out once per process and never changed.
fn sight_lines() -> &'static [Vec<LosCell>] {
    static LINES: std::sync::OnceLock<Vec<Vec<LosCell>>> = std::sync::OnceLock::new();
    LINES.get_or_init(|| {
        let side = 2 * MAX_RANGE + 1;
        (0..side * side)
            .map(|k| {
                let to = Hex::new(k / side - MAX_RANGE, k % side - MAX_RANGE);
                let origin = Hex::new(0, 0);
                if origin.distance(to) <= MAX_RANGE as u32 {
                    line_between(origin, to)
                } else {
                    Vec::new()
                }
            })
            .collect()
    })
}

/// The modifier of a Range Table column (`ranges`) at `distance` hexes, or `None` out of
/// range (9.11).
fn range_in(ranges: &[Option<i32>; 6], distance: u32) -> Option<i32> {
    if distance == 0 || distance > 6 {
        return None;
    }
    ranges[distance as usize - 1]
}

/// Writes [`line_between`] `from` and `to` to `line` (from the table of [`sight_lines`] within
/// the Range Table's reach).
fn sight_line(from: Hex, to: Hex, line: &mut Vec<LosCell>) {
    line.clear();
    if from.distance(to) > MAX_RANGE as u32 {
        line.extend(line_between(from, to));
        return;
    }
    let d = to - from;
    let side = 2 * MAX_RANGE + 1;
    let cells = &sight_lines()[((d.q + MAX_RANGE) * side + d.r + MAX_RANGE) as usize];
    line.extend(cells.iter().map(|&c| match c {
        LosCell::Hex(h) => LosCell::Hex(h + from),
        LosCell::Hexside(a, b) => LosCell::Hexside(a + from, b + from),
    }));
}

impl State {
    /// Whether a unit may fire at all this segment (9.1, 10.1, 16.42, 12.21).
    pub fn may_fire(&self, u: UnitId) -> bool {
        let s = self.unit(u);
        self.hex(u).is_some()
            && self.values(u).fire
            && self.battle.utype(u).fire_column.is_some()
            && !s.routed
            && !s.fired
            && s.fury != Fury::Exhausted
            && !self.night()
    }

    /// The range modifier for a unit firing `distance` hexes, or `None` out of range (9.11).
    pub fn range_modifier(&self, u: UnitId, distance: u32) -> Option<i32> {
        let col = self.battle.utype(u).fire_column?;
        range_in(&self.battle.tables.range[col], distance)
    }

    /// Whether the target hex `to` lies through the firer's frontal hexsides (9.1): the line
    /// to it (`line`, [`line_between`] the two hexes) leaves the firer's hex through a front
    /// hexside (or along one).
    fn in_front(&self, u: UnitId, from: Hex, to: Hex, line: &[LosCell]) -> bool {
        if self.skirmisher(u) {
            return true;
        }
        let front = |h: Hex| {
            from.direction_to(h)
                .is_some_and(|d| self.arc(u, d) == Arc::Front)
        };
        if from.distance(to) == 1 {
            return front(to);
        }
        match line.first() {
            Some(LosCell::Hex(h)) => front(*h),
            Some(LosCell::Hexside(a, b)) => front(*a) || front(*b),
            None => front(to),
        }
    }

    /// Whether a hex blocks the line of sight from `from` to `to` (9.21, 9.22).
    fn blocks(&self, h: Hex, from: Hex, to: Hex) -> bool {
        let map = &self.battle.map;
        let e = |x: Hex| map.info(x).elevation;
        let (ef, et, eh) = (e(from), e(to), e(h));
        let woods_or_town = self.battle.tables.terrains[map.info(h).terrain as usize].blocks_los;
        let units = self.occupant(h).is_some();
        if ef == et {
            // 9.21: woods or town at the same elevation, units at the same elevation, or a
            // higher hex.
            ((woods_or_town || units) && eh == ef) || eh > ef
        } else {
            // 9.22: a hex higher than both, woods or town, units adjacent to the target.
            eh > ef.max(et) || woods_or_town || (units && h.distance(to) == 1)
        }
    }

    /// Whether `from` sees `to` (9.2). A line running along a hexside is blocked only when
    /// both hexes block it: the firer may look down either side (rules notes, 9.2).
    pub fn line_of_sight(&self, from: Hex, to: Hex) -> bool {
        let mut line = Vec::new();
        sight_line(from, to, &mut line);
        from.distance(to) <= 1 || self.line_clear(from, to, &line)
    }

    /// Whether no cell of `line` (from `from` to `to`) blocks the line of sight (9.2).
    fn line_clear(&self, from: Hex, to: Hex, line: &[LosCell]) -> bool {
        line.iter().all(|&cell| match cell {
            LosCell::Hex(h) => !self.blocks(h, from, to),
            LosCell::Hexside(a, b) => !(self.blocks(a, from, to) && self.blocks(b, from, to)),
        })
    }

    /// Crusades II 16.11: whether a unit takes part in the combat activation under way: a unit of
    /// the activated leader's command, or a skirmish or artillery unit of his side that has not yet
    /// fought this turn. Any unit when no activation is under way.
    pub fn combat_participant(&self, u: UnitId) -> bool {
        self.activated(u) && !(self.free_agent(u) && self.unit(u).fought)
    }

    /// The hexes a unit may fire at now. With action chits (Crusades II 16.11, rules notes), a unit
    /// of the activated command (or a free skirmish or artillery unit) fires offensively, and each
    /// enemy unit may fire defensively once a turn, at hexes holding units that take part.
    pub fn fire_targets(&self, u: UnitId) -> Vec<Hex> {
        self.fire_targets_among(u, &self.unit_hexes(self.battle.enemy(self.side(u))))
    }

    /// The hexes of `side`'s combat units on the map, in unit order (a hex once per unit).
    pub(crate) fn unit_hexes(&self, side: Seat) -> Vec<Hex> {
        self.on_map(side).filter_map(|u| self.hex(u)).collect()
    }

    /// [`State::fire_targets`] of unit `u`, given the hexes of its enemy's units
    /// ([`State::unit_hexes`]): one list serves every unit of a side.
    pub(crate) fn fire_targets_among(&self, u: UnitId, enemies: &[Hex]) -> Vec<Hex> {
        if !self.may_fire(u) {
            return Vec::new();
        }
        let act = self.activation();
        let defending = act.is_some_and(|a| self.side(u) != a.side);
        if let Some(a) = act {
            if a.kind != crate::state::ActionKind::Combat
                || (defending && self.unit(u).fired_defending)
                || (!defending && !self.combat_participant(u))
            {
                return Vec::new();
            }
        }
        let Some(from) = self.hex(u) else {
            return Vec::new();
        };
        // The unit's column of the Range Table ([`State::range_modifier`]).
        let Some(col) = self.battle.utype(u).fire_column else {
            return Vec::new();
        };
        let ranges = &self.battle.tables.range[col];
        let mut out: Vec<Hex> = Vec::new();
        let mut line = Vec::new();
        // The cheap tests first; each is a condition of its own, so their order does not
        // change the targets.
        for &h in enemies {
            // The cheap test first: a hex more than six columns or rows off is beyond the
            // Range Table's six distances (a distance is at least either difference), as
            // `range_in` would find.
            let far = |a: i32, b: i32| (i64::from(a) - i64::from(b)).unsigned_abs() > 6;
            if far(h.q, from.q) || far(h.r, from.r) {
                continue;
            }
            let d = from.distance(h);
            if range_in(ranges, d).is_none() {
                continue;
            }
            if out.contains(&h) || self.fire_closed.contains(&h) {
                continue;
            }
            if defending
                && !self
                    .stack_at(h)
                    .into_iter()
                    .any(|t| self.combat_participant(t))
            {
                continue;
            }
            // The line is worked out once, for the front (9.1) and the sight (9.2).
            if d > 1 {
                sight_line(from, h, &mut line);
            } else {
                line.clear();
            }
            if self.in_front(u, from, h, &line) && (d <= 1 || self.line_clear(from, h, &line)) {
                out.push(h);
            }
        }
        out
    }

    /// The seat firing in the current fire segment.
    pub fn firing_seat(&self) -> Seat {
        match self.phase {
            Phase::DefensiveFire => self.battle.enemy(self.active),
            _ => self.active,
        }
    }

    /// Every modifier to `u`'s fire from `from` at `target`, whose top unit is `top` (9.1,
    /// 9.11, 8.2): range, the target's terrain, the hexside fired across, uphill, the target's
    /// type.
    pub(crate) fn fire_modifiers(
        &self,
        u: UnitId,
        from: Hex,
        target: Hex,
        top: UnitId,
    ) -> Vec<Modifier> {
        let t = &self.battle.tables;
        let mut mods = Vec::new();
        let d = from.distance(target);
        if let Some(m) = self.range_modifier(u, d).filter(|m| *m != 0) {
            mods.push(Modifier {
                reason: format!("range {d} (9.11)"),
                value: m,
            });
        }
        let terrain = &t.terrains[self.battle.map.info(target).terrain as usize];
        if terrain.fire != 0 {
            mods.push(Modifier {
                reason: format!("target in {} (8.2)", terrain.name),
                value: terrain.fire,
            });
        }
        if d == 1 {
            if let Some(f) = from
                .direction_to(target)
                .and_then(|dir| self.battle.map.feature(from, dir))
            {
                let f = &t.features[f as usize];
                if f.fire != 0 {
                    mods.push(Modifier {
                        reason: format!("through {} (8.2)", f.name),
                        value: f.fire,
                    });
                }
            }
        }
        if self.battle.map.info(target).elevation > self.battle.map.info(from).elevation
            && t.fire_uphill != 0
        {
            mods.push(Modifier {
                reason: "firing uphill".into(),
                value: t.fire_uphill,
            });
        }
        let tm = self.battle.utype(top).fire_target_modifier;
        if tm != 0 {
            mods.push(Modifier {
                reason: format!("target is {} (9.1)", self.battle.utype(top).name),
                value: tm,
            });
        }
        mods
    }

    /// Resolves one unit's fire at a hex (9.1): range, terrain, elevation and target
    /// modifiers; the Fire Table; morale checks and step losses.
    pub fn fire(&mut self, u: UnitId, target: Hex, log: &mut Log) {
        let from = self.hex(u).unwrap_or(target);
        if self.fire_target != Some(target) {
            // 9.1: all fire at one hex is resolved before another hex is fired at.
            if let Some(prev) = self.fire_target.replace(target) {
                self.fire_closed.push(prev);
            }
        }
        self.unit_mut(u).fired = true;
        if self.phase == Phase::OffensiveFire {
            self.unit_mut(u).fired_at = Some(target);
        }
        if self.activation().is_some() {
            // 16.11: note who has fought, and who has fired defensively, this turn.
            if self.phase == Phase::OffensiveFire {
                self.unit_mut(u).fought = true;
            } else {
                self.unit_mut(u).fired_defending = true;
            }
        }
        let defenders = self.stack_at(target);
        let Some(&top) = defenders.first() else {
            return;
        };
        let mods = self.fire_modifiers(u, from, target, top);
        let t = &self.battle.tables;
        let roll = self.dice.d10();
        let total = roll as i32 + mods.iter().map(|m| m.value).sum::<i32>();
        let col = self.battle.utype(u).fire_column.unwrap_or(0);
        let (row, result) = t.fire.read(total, col);
        let col_name = t.fire.columns[col].clone();
        let name = self.name(u).to_string();
        let at = self.id(target);
        log.push_with(|| {
            Event::public("Crusades II 9.1", format!("{name} fires at {at}: {result}")).with_roll(
                RollRecord {
                    purpose: format!("fire of {name} at {at}"),
                    dice: vec![roll],
                    modifiers: mods,
                    total,
                    cell: Some(format!("Fire Table, {col_name}, row {row}")),
                    result: result.to_string(),
                },
            )
        });
        match result {
            CombatResult::NoEffect => {}
            CombatResult::Morale => self.check_hex(target, log),
            CombatResult::Steps(_) => {
                // 9.1: the top unit loses one step, then all in the hex check morale.
                self.lose_step(top, false, log);
                self.check_hex(target, log);
            }
        }
    }

    /// Every combat unit in a hex checks morale after a result; failures rout and retreat
    /// 1-3 hexes (10.0), top unit first (7.12).
    pub fn check_hex(&mut self, hex: Hex, log: &mut Log) {
        for v in self.stack_at(hex) {
            if !self.morale_check(v, CheckKind::Result, log) {
                self.rout(v, 1, 3, log);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines read from the table of [`sight_lines`] are those [`line_between`] works out,
    /// from firers anywhere (negative coordinates too) to every hex within range and beyond.
    #[test]
    fn lines_from_the_table_are_the_lines_between() {
        let mut line = Vec::new();
        for from in [
            Hex::new(0, 0),
            Hex::new(7, -3),
            Hex::new(-5, 12),
            Hex::new(23, 9),
        ] {
            for dq in -MAX_RANGE - 1..=MAX_RANGE + 1 {
                for dr in -MAX_RANGE - 1..=MAX_RANGE + 1 {
                    let to = Hex::new(from.q + dq, from.r + dr);
                    sight_line(from, to, &mut line);
                    assert_eq!(line, line_between(from, to), "{from:?} to {to:?}");
                }
            }
        }
    }
}
