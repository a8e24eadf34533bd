//! 9.3-9.5 Melee: who may attack what, the procedure of 9.32 step by step (announcement,
//! morale of attacker and defender, withdrawal before melee, the simultaneous rolls on the
//! Melee Table with every modifier, results, retreat and advance, and the heavy cavalry's
//! second melee), with the optional 16.2 odds and 16.6 unit type modifiers and 16.41 shifts.

use engine::{Event, Log, Modifier, RollRecord};
use hexgrid::{Arc, Direction, Hex};

use crate::morale::CheckKind;
use crate::scenario::{Chit, CombatResult, UnitId};
use crate::state::{Fury, MeleeStage, MeleeState, State, Task};

/// 16.2 Melee Odds Modifiers: the attacker's strength against the defender's, as a ratio
/// rounded in the defender's favour: +1 to the attacker at 2-1, +2 at 3-1, +3 at 4-1 or more;
/// +1 to the defender at 1-2 or less. Returns (attacker's, defender's) modifier.
pub fn odds_modifiers(attack: u32, defence: u32) -> (i32, i32) {
    let (a, d) = (attack.max(1), defence.max(1));
    let attacker = match a / d {
        0 | 1 => 0,
        2 => 1,
        3 => 2,
        _ => 3,
    };
    // 1 to 2 or less: the defender has at least twice the attacker's strength.
    let defender = i32::from(d >= 2 * a);
    (attacker, defender)
}

/// The modifiers and column of one side's roll.
pub(crate) struct SideRoll {
    /// The side's total strength (9.32 step 4).
    pub strength: u32,
    /// The Melee Table column it rolls on, after shifts.
    pub column: usize,
    /// Every modifier to its roll.
    pub mods: Vec<Modifier>,
}

impl State {
    /// Whether unit `u` may attack in melee now (9.3, 9.31, 10.1, 16.42, 9.4 note 1).
    pub fn may_attack(&self, u: UnitId) -> bool {
        self.side(u) == self.active
            && self.activated(u)
            && !self.unit(u).meleed
            && self.could_attack(u)
    }

    /// Whether unit `u` could attack in melee in its side's Melee Phase as it stands, the
    /// phase and activation aside: on the map, not routed, not a skirmisher nor artillery,
    /// not exhausted, in command under a chit that lets it attack unless berserk (9.3, 10.1,
    /// 16.41, 16.42, 9.4 note 1).
    pub fn could_attack(&self, u: UnitId) -> bool {
        let s = self.unit(u);
        if self.hex(u).is_none()
            || s.routed
            || self.skirmisher(u)
            || self.battle.utype(u).artillery
            || s.fury == Fury::Exhausted
        {
            return false;
        }
        if s.fury == Fury::Berserk {
            return true; // 16.41: berserk units are not affected by command chits
        }
        !s.out_of_command
            && matches!(
                self.chit(u),
                Some(Chit::Advance | Chit::Stand | Chit::Attack)
            )
    }

    /// Enemy hexes a unit may attack: in its two front hexes (9.3), across a hexside it could
    /// move across (rules notes: no melee where no ZOC reaches, 6.22).
    pub fn melee_targets(&self, u: UnitId) -> Vec<Hex> {
        let Some(h) = self.hex(u) else {
            return Vec::new();
        };
        let enemy = self.battle.enemy(self.side(u));
        let class = self.move_class(u);
        Direction::ALL
            .into_iter()
            .filter(|&d| self.arc(u, d) == Arc::Front && self.passable(class, h, d))
            .map(|d| h.neighbour(d))
            .filter(|&t| self.occupant(t) == Some(enemy))
            .collect()
    }

    /// Units that represent attacking stacks: the top unit of each stack (7.11).
    pub fn attack_representatives(&self) -> Vec<UnitId> {
        self.on_map(self.active)
            .filter(|&u| self.may_attack(u))
            .filter(|&u| self.tops_stack(u))
            .collect()
    }

    /// Every legal melee declaration of the phasing player: each enemy hex not yet attacked,
    /// with each non-empty set of stacks that may attack it (listed in unit order).
    pub fn melee_declarations(&self) -> Vec<(Hex, Vec<UnitId>)> {
        let reps = self.attack_representatives();
        let reach: Vec<Vec<Hex>> = reps.iter().map(|&u| self.melee_targets(u)).collect();
        let mut targets: Vec<Hex> = Vec::new();
        for ts in &reach {
            for &t in ts {
                if !targets.contains(&t) && !self.attacked.contains(&t) {
                    targets.push(t);
                }
            }
        }
        let mut out = Vec::new();
        for t in targets {
            let able: Vec<UnitId> = reps
                .iter()
                .zip(&reach)
                .filter(|(_, ts)| ts.contains(&t))
                .map(|(&u, _)| u)
                .collect();
            let n = able.len().min(6);
            for mask in 1u32..(1 << n) {
                let set: Vec<UnitId> = (0..n)
                    .filter(|i| mask & (1 << i) != 0)
                    .map(|i| able[i])
                    .collect();
                out.push((t, set));
            }
        }
        out
    }

    /// Declares a melee (9.32 step 1) and resolves it as far as it goes without a decision.
    pub fn declare_melee(&mut self, target: Hex, reps: &[UnitId], second: bool, log: &mut Log) {
        let mut attackers = Vec::new();
        for &r in reps {
            attackers.push(r);
            if let Some(m) = self.stack_mate(r) {
                attackers.push(m);
            }
        }
        for &a in &attackers {
            self.unit_mut(a).meleed = true;
            self.unit_mut(a).in_melee = true;
            if self.activation().is_some() {
                self.unit_mut(a).fought = true; // 16.11
            }
        }
        if !self.attacked.contains(&target) {
            self.attacked.push(target);
        }
        let defenders = self.stack_at(target);
        let names = attackers
            .iter()
            .map(|&a| self.name(a).to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let at = self.id(target);
        log.push_with(|| {
            Event::public(
                "Crusades II 9.32",
                format!(
                    "{names} {} {at}",
                    if attackers.len() > 1 {
                        "attack"
                    } else {
                        "attacks"
                    }
                ),
            )
        });
        // Step 2: the attackers check morale; failures do not attack (and do not rout).
        let mut staying = Vec::new();
        for a in attackers {
            if self.morale_check(a, CheckKind::PreMelee, log) {
                staying.push(a);
            }
        }
        for &d in &defenders {
            self.unit_mut(d).in_melee = true;
        }
        if staying.is_empty() {
            log.push_with(|| {
                Event::public(
                    "Crusades II 9.32",
                    "no attacker passes morale: the attack does not take place",
                )
            });
            return;
        }
        self.melees.push(MeleeState {
            target,
            attackers: staying,
            defenders,
            stage: MeleeStage::Withdrawal,
            second,
            advanced: Vec::new(),
            berserk_attackers: Vec::new(),
            berserk_defenders: Vec::new(),
        });
        self.continue_melee(log);
    }

    /// Runs the melee on top of the stack until a decision is needed or it ends.
    pub fn continue_melee(&mut self, log: &mut Log) {
        while self.tasks.is_empty() {
            let Some(m) = self.melees.last().cloned() else {
                return;
            };
            let defenders: Vec<UnitId> = self.stack_at(m.target);
            let attackers: Vec<UnitId> = m
                .attackers
                .iter()
                .copied()
                .filter(|&a| self.hex(a).is_some())
                .collect();
            let top = self.melees.len() - 1;
            match m.stage {
                MeleeStage::Withdrawal => {
                    self.melees[top].stage = MeleeStage::DefenderMorale;
                    if let Some(task) = self.withdrawal_offer(&defenders, &attackers) {
                        self.tasks.push(task);
                    }
                }
                MeleeStage::DefenderMorale => {
                    self.melees[top].stage = MeleeStage::Roll;
                    // Step 4: defenders check; failures rout and retreat 3 hexes.
                    for d in defenders {
                        if !self.morale_check(d, CheckKind::PreMelee, log) {
                            self.rout(d, 3, 3, log);
                        }
                    }
                }
                MeleeStage::Roll => {
                    self.melees[top].stage = MeleeStage::Advance;
                    if !defenders.is_empty() && !attackers.is_empty() {
                        self.melee_rolls(&attackers, &defenders, m.target, log);
                    }
                }
                MeleeStage::Advance => {
                    self.melees[top].stage = MeleeStage::Pursuit;
                    if self.stack_at(m.target).is_empty() {
                        let candidates: Vec<UnitId> = attackers
                            .iter()
                            .copied()
                            .filter(|&a| !self.unit(a).routed)
                            .filter(|&a| {
                                let h = self.hex(a).unwrap_or(m.target);
                                h.direction_to(m.target)
                                    .is_some_and(|d| self.passable(self.move_class(a), h, d))
                            })
                            .filter(|&a| {
                                // One per stack: the top unit stands for it.
                                self.stack_at(self.hex(a).unwrap_or(m.target)).first() == Some(&a)
                            })
                            .collect();
                        if !candidates.is_empty() {
                            self.tasks.push(Task::Advance {
                                hex: m.target,
                                candidates,
                            });
                        }
                    }
                }
                MeleeStage::Pursuit => {
                    self.melees.pop();
                    self.berserk_second_combats(&m);
                    if !m.second {
                        self.pursuits(&m, &attackers);
                    }
                }
            }
        }
    }

    /// 9.32 step 7: charging heavy cavalry that advanced may move 4 MP and attack again.
    /// Crusades II 16.41: so may berserk units of the phasing player, "even if the defender's
    /// hex is not vacated". A unit that has only just gone berserk in this combat fights its
    /// 16.4 second combat instead (rules notes, 16.4).
    fn pursuits(&mut self, m: &MeleeState, attackers: &[UnitId]) {
        let fresh = |u: UnitId| m.berserk_attackers.contains(&u);
        let mut chasing: Vec<UnitId> = Vec::new();
        for &a in &m.advanced {
            if fresh(a) {
                continue;
            }
            if (self.heavy(a) && self.unit(a).charging) || self.unit(a).fury == Fury::Berserk {
                chasing.push(a);
            }
        }
        // Without berserk units in play the second movement goes only to units that advanced
        // (rules notes, 16.4).
        let unvacated = if self.berserk_effects() {
            attackers
        } else {
            &[]
        };
        for &a in unvacated {
            if fresh(a)
                || chasing.contains(&a)
                || self.side(a) != self.active
                || self.hex(a).is_none()
                || self.unit(a).fury != Fury::Berserk
                || self.stack_mate(a).is_some_and(|x| chasing.contains(&x))
            {
                continue;
            }
            chasing.push(a);
        }
        for a in chasing {
            self.tasks.push(Task::Pursue { unit: a });
        }
    }

    /// Crusades II 16.4: units that have just gone berserk fight a second combat against an
    /// adjacent enemy unit, "unless both become berserk, in which case the initial attacker
    /// is still considered the attacker": then only the attacking side's berserk units fight
    /// again, against the hex of the defending ones.
    fn berserk_second_combats(&mut self, m: &MeleeState) {
        let still = |s: &State, u: UnitId| s.hex(u).is_some() && s.unit(u).fury == Fury::Berserk;
        let att: Vec<UnitId> = m
            .berserk_attackers
            .iter()
            .copied()
            .filter(|&u| still(self, u))
            .collect();
        let def: Vec<UnitId> = m
            .berserk_defenders
            .iter()
            .copied()
            .filter(|&u| still(self, u))
            .collect();
        if !att.is_empty() && !def.is_empty() {
            let only = self.hex(def[0]);
            for u in att {
                self.tasks.push(Task::BerserkCombat { unit: u, only });
            }
        } else {
            for u in att.into_iter().chain(def) {
                self.tasks.push(Task::BerserkCombat {
                    unit: u,
                    only: None,
                });
            }
        }
    }

    /// Crusades II 16.4: hexes a berserk unit may attack in its second combat: an adjacent hex
    /// holding enemy combat units, across a hexside it could cross (6.22); any adjacent hex, not
    /// only its front ("a second combat takes place against an adjacent enemy unit"). Artillery
    /// cannot attack (9.4 note 1). `only` limits it to one hex.
    pub fn berserk_targets(&self, u: UnitId, only: Option<Hex>) -> Vec<Hex> {
        let Some(h) = self.hex(u) else {
            return Vec::new();
        };
        if self.battle.utype(u).artillery || self.unit(u).routed {
            return Vec::new();
        }
        let enemy = self.battle.enemy(self.side(u));
        let class = self.move_class(u);
        Direction::ALL
            .into_iter()
            .filter(|&d| self.passable(class, h, d))
            .map(|d| h.neighbour(d))
            .filter(|&t| self.occupant(t) == Some(enemy))
            .filter(|&t| only.is_none_or(|o| o == t))
            .collect()
    }

    /// Crusades II 16.4: "Whenever 2 step losses are taken in combat, each player checks for
    /// each of his units to see if any of them go berserk." Reading: two or more steps lost in
    /// one melee, both sides counted; the units involved in it, still on the map, not routed
    /// and not already berserk or exhausted, check, the attacker's first.
    fn berserk_checks(&mut self, attackers: &[UnitId], defenders: &[UnitId], log: &mut Log) {
        for (attacking, units) in [(true, attackers), (false, defenders)] {
            for &u in units {
                let st = self.unit(u);
                if self.hex(u).is_none() || st.routed || st.fury != Fury::Calm {
                    continue;
                }
                if self.berserk_check(u, "Crusades II 16.4", log) {
                    if let Some(m) = self.melees.last_mut() {
                        if attacking {
                            m.berserk_attackers.push(u);
                        } else {
                            m.berserk_defenders.push(u);
                        }
                    }
                }
            }
        }
    }

    /// 9.32 step 3: cavalry with a Retreat or Stand command attacked by infantry may withdraw;
    /// skirmishers attacked by cavalry may withdraw on 8-10 (5.4).
    fn withdrawal_offer(&self, defenders: &[UnitId], attackers: &[UnitId]) -> Option<Task> {
        let &top = defenders.first()?;
        let all_foot = attackers.iter().all(|&a| !self.mounted(a));
        let any_horse = attackers.iter().any(|&a| self.mounted(a));
        let cavalry = defenders.iter().all(|&d| {
            self.mounted(d)
                && !self.skirmisher(d)
                && self.follows_chit(d)
                && matches!(self.chit(d), Some(Chit::Retreat | Chit::Stand))
        });
        let skirmishers = defenders.iter().all(|&d| self.skirmisher(d));
        if self.retreat_destinations(top, 1, 3).is_empty() {
            return None;
        }
        if cavalry && all_foot {
            Some(Task::Withdraw {
                unit: top,
                needs_roll: false,
            })
        } else if skirmishers && any_horse {
            Some(Task::Withdraw {
                unit: top,
                needs_roll: true,
            })
        } else {
            None
        }
    }

    fn side_roll(
        &self,
        units: &[UnitId],
        attacking: bool,
        enemies: &[UnitId],
        target: Hex,
        chits_known: bool,
    ) -> SideRoll {
        let t = &self.battle.tables;
        let mut strength: u32 = 0;
        for &u in units {
            let mut s = self.values(u).strength as u32;
            if chits_known
                && self.carries_cross(u)
                && self.follows_chit(u)
                && self.chit(u) == Some(Chit::Stand)
            {
                s *= 2; // 12.22
            }
            strength += s;
        }
        let mut mods = Vec::new();
        let chit_all = |c: Chit| {
            chits_known
                && units
                    .iter()
                    .all(|&u| self.follows_chit(u) && self.chit(u) == Some(c))
        };
        if attacking && chit_all(Chit::Attack) {
            mods.push(Modifier {
                reason: "Attack command (5.11)".into(),
                value: 1,
            });
        }
        if !attacking && chit_all(Chit::Stand) {
            mods.push(Modifier {
                reason: "Stand command (5.13)".into(),
                value: 1,
            });
        }
        if !attacking && units.iter().any(|&u| self.unit(u).routed) {
            mods.push(Modifier {
                reason: "routed (10.1)".into(),
                value: -1,
            });
        }
        // 4.13: one leader's bonus per side, the owner choosing: the best.
        let bonus = units
            .iter()
            .filter_map(|&u| self.hex(u))
            .flat_map(|h| self.leaders_at(h))
            .filter(|&l| self.battle.leaders[l as usize].side == self.side(units[0]))
            .map(|l| (self.ratings(l).2, l))
            .max();
        if let Some((b, l)) = bonus.filter(|(b, _)| *b != 0) {
            mods.push(Modifier {
                reason: format!("{} (4.13)", self.leader_name(l)),
                value: b,
            });
        }
        if attacking {
            let def_top = enemies[0];
            // Flank or rear: a single such unit is enough (9.4).
            let flank = !self.skirmisher(def_top)
                && units.iter().any(|&a| {
                    self.hex(a)
                        .and_then(|h| target.direction_to(h))
                        .is_some_and(|d| self.arc(def_top, d) != Arc::Front)
                });
            if flank {
                mods.push(Modifier {
                    reason: "through the defender's flank or rear (9.4)".into(),
                    value: 1,
                });
            }
            let terrain = &t.terrains[self.battle.map.info(target).terrain as usize];
            if terrain.melee != 0 {
                mods.push(Modifier {
                    reason: format!("defender in {} (8.2)", terrain.name),
                    value: terrain.melee,
                });
            }
            let worst_side = units
                .iter()
                .filter_map(|&a| {
                    let h = self.hex(a)?;
                    let f = self.battle.map.feature(h, h.direction_to(target)?)?;
                    Some(&t.features[f as usize])
                })
                .min_by_key(|f| f.melee);
            if let Some(f) = worst_side.filter(|f| f.melee != 0) {
                mods.push(Modifier {
                    reason: format!("across {} (8.2)", f.name),
                    value: f.melee,
                });
            }
            let high = units
                .iter()
                .filter_map(|&a| self.hex(a))
                .map(|h| self.battle.map.info(h).elevation)
                .max()
                .unwrap_or(0);
            if self.battle.map.info(target).elevation > high && t.melee_uphill != 0 {
                mods.push(Modifier {
                    reason: "attacking uphill".into(),
                    value: t.melee_uphill,
                });
            }
            if self.options.unit_type_modifiers && !self.battle.utype(def_top).artillery {
                // 16.6; 9.4 note 1: no type modifier against cannon.
                let a = self.battle.utype(units[0]).melee_class;
                let d = self.battle.utype(def_top).melee_class;
                let m = t.unit_type_modifier[a][d];
                if m != 0 {
                    mods.push(Modifier {
                        reason: "unit types (16.6)".into(),
                        value: m,
                    });
                }
            }
        }
        SideRoll {
            column: t.melee_column(strength),
            strength,
            mods,
        }
    }

    /// Both sides' melee rolls before the dice: strengths, columns and every modifier
    /// (9.32 step 4, 9.4, 16.2, 16.41, 16.42). With `chits_known` false the defenders'
    /// command chits count for nothing, as the attacker sees the melee before it is fought:
    /// another seat's chits are hidden from him (5.0).
    pub(crate) fn melee_sides(
        &self,
        attackers: &[UnitId],
        defenders: &[UnitId],
        target: Hex,
        chits_known: bool,
    ) -> (SideRoll, SideRoll) {
        let mut att = self.side_roll(attackers, true, defenders, target, true);
        let mut def = self.side_roll(defenders, false, attackers, target, chits_known);
        if self.options.melee_odds {
            let (a, d) = odds_modifiers(att.strength, def.strength);
            if a > 0 {
                att.mods.push(Modifier {
                    reason: "melee odds (16.2)".into(),
                    value: a,
                });
            }
            if d > 0 {
                def.mods.push(Modifier {
                    reason: "melee odds of 1-2 or worse (16.2)".into(),
                    value: d,
                });
            }
        }
        // 16.41, 16.42: column shifts on the attacker's column.
        let columns = self.battle.tables.melee.columns.len() as i32;
        let mut shift = 0;
        if attackers
            .iter()
            .any(|&a| self.unit(a).fury == Fury::Berserk)
        {
            shift += 2;
        }
        if defenders
            .iter()
            .any(|&d| self.unit(d).fury == Fury::Berserk)
        {
            shift -= 2;
        }
        if defenders
            .iter()
            .any(|&d| self.unit(d).fury == Fury::Exhausted)
        {
            shift += 1;
        }
        att.column = (att.column as i32 + shift).clamp(0, columns - 1) as usize;
        (att, def)
    }

    fn melee_rolls(
        &mut self,
        attackers: &[UnitId],
        defenders: &[UnitId],
        target: Hex,
        log: &mut Log,
    ) {
        let (att, def) = self.melee_sides(attackers, defenders, target, true);
        let a_roll = self.dice.d10();
        let d_roll = self.dice.d10();
        let a_total = a_roll as i32 + att.mods.iter().map(|m| m.value).sum::<i32>();
        let d_total = d_roll as i32 + def.mods.iter().map(|m| m.value).sum::<i32>();
        let table = &self.battle.tables.melee;
        let (a_row, on_defender) = table.read(a_total, att.column);
        let (d_row, on_attacker) = table.read(d_total, def.column);
        let (a_col, d_col) = (
            table.columns[att.column].clone(),
            table.columns[def.column].clone(),
        );
        let at = self.id(target);
        log.push_with(|| {
            Event::public(
                "Crusades II 9.32",
                format!("melee at {at}: attacker {} strength rolls {on_defender}; defender {} strength rolls {on_attacker}", att.strength, def.strength),
            )
            .with_roll(RollRecord {
                purpose: "attacker's melee roll".into(),
                dice: vec![a_roll],
                modifiers: att.mods,
                total: a_total,
                cell: Some(format!("Melee Table, {a_col}, row {a_row}")),
                result: on_defender.to_string(),
            })
            .with_roll(RollRecord {
                purpose: "defender's melee roll".into(),
                dice: vec![d_roll],
                modifiers: def.mods,
                total: d_total,
                cell: Some(format!("Melee Table, {d_col}, row {d_row}")),
                result: on_attacker.to_string(),
            })
        });
        // The defender applies the attacker's result first, then the attacker (9.32 step 5).
        let lost = self.melee_result(defenders, on_defender, log)
            + self.melee_result(attackers, on_attacker, log);
        if self.options.berserk && lost >= 2 {
            self.berserk_checks(attackers, defenders, log);
        }
    }

    /// 9.41: apply one side's result: step losses from the top units (the attacker's in the
    /// order he named them), then every unit present checks morale. Returns the steps lost.
    fn melee_result(&mut self, units: &[UnitId], result: CombatResult, log: &mut Log) -> u32 {
        let mut lost = 0;
        if let CombatResult::Steps(n) = result {
            for _ in 0..n {
                let next = units.iter().copied().find(|&u| self.hex(u).is_some());
                match next {
                    Some(u) => {
                        self.lose_step(u, true, log);
                        lost += 1;
                    }
                    None => break,
                }
            }
        }
        if result != CombatResult::NoEffect {
            for &u in units {
                if self.hex(u).is_some() && !self.morale_check(u, CheckKind::Result, log) {
                    self.rout(u, 1, 3, log);
                }
            }
        }
        lost
    }

    /// Moves the advancing stack into the vacated hex (9.5).
    pub fn advance_into(&mut self, u: UnitId, hex: Hex, log: &mut Log) {
        let side = self.side(u);
        let mut group = vec![u];
        if let Some(m) = self.stack_mate(u) {
            group.push(m);
        }
        let from = self.hex(u);
        for &g in &group {
            self.unit_mut(g).loc = crate::state::Loc::Map(hex);
        }
        if let Some(from) = from {
            if self.stack_at(from).is_empty() {
                for l in self.leaders_at(from) {
                    if self.battle.leaders[l as usize].side == side {
                        self.leaders[l as usize].loc = crate::state::Loc::Map(hex);
                    }
                }
            }
        }
        self.overrun_leaders(hex, side, log);
        if let Some(m) = self.melees.last_mut() {
            m.advanced.extend(group.iter().copied());
        }
        let names = group
            .iter()
            .map(|&g| self.name(g).to_string())
            .collect::<Vec<_>>()
            .join(" and ");
        let at = self.id(hex);
        log.push_with(|| {
            Event::public(
                "Crusades II 9.5",
                format!(
                    "{names} {} into {at}",
                    if group.len() > 1 {
                        "advance"
                    } else {
                        "advances"
                    }
                ),
            )
        });
    }

    /// Hexes adjacent through a unit's front hexsides holding enemies it may attack in a
    /// second melee (9.32 step 7: enemies in its frontal ZOC).
    pub fn second_melee_targets(&self, u: UnitId) -> Vec<Hex> {
        self.melee_targets(u)
    }
}
