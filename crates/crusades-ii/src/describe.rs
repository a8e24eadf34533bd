//! Each legal action described for a player choosing it ([`engine::ActionInfo`]): the
//! counters it is about, where it goes, and for fire and melee the columns and every
//! modifier the rules will apply (9.1, 9.32), computed before the dice and without the
//! other side's hidden command chits (5.0).

use engine::{ActionInfo, Modifier};
use hexgrid::Hex;

use crate::action::Action;
use crate::scenario::{LeaderId, UnitId};
use crate::state::{Pick, State};

impl State {
    /// `action`, one of the deciding seat's legal actions, described from what that seat
    /// may see: its own chits, and none of the other side's.
    pub fn describe(&self, action: &Action) -> ActionInfo {
        let mut info = ActionInfo::from_notation(action.text(&self.battle));
        match action {
            Action::Place { unit, hex, facing } => {
                self.about_unit(&mut info, *unit);
                info.hex = Some(self.battle.map.id(*hex));
                info.facing = Some(*facing);
                info.label = format!(
                    "Set up {} in {} facing {facing}",
                    self.name(*unit),
                    self.id(*hex)
                );
            }
            Action::PlaceLeader { leader, hex } => {
                self.about_leader(&mut info, *leader);
                info.hex = Some(self.battle.map.id(*hex));
                info.label = format!("Set up {} in {}", self.leader_name(*leader), self.id(*hex));
            }
            Action::DeployHistorical => {
                info.label = "Set up every remaining counter as it stood historically".into();
            }
            Action::Chit { leader, chit } => {
                self.about_leader(&mut info, *leader);
                info.label = format!(
                    "Give {} the {} chit",
                    self.leader_name(*leader),
                    chit.name()
                );
            }
            Action::Change { leader, chit } => {
                self.about_leader(&mut info, *leader);
                info.label = format!(
                    "Try to change {}'s chit to {} (5.2, a die roll)",
                    self.leader_name(*leader),
                    chit.name()
                );
            }
            Action::Charge { unit } => {
                self.about_unit(&mut info, *unit);
                info.label = format!(
                    "Try to flip {} to its charging side (5.6)",
                    self.name(*unit)
                );
            }
            Action::OrdersDone => info.label = "Orders done".into(),
            Action::Move {
                unit,
                alone,
                to,
                facing,
                via,
            } => {
                info.counters = self
                    .moving_group(*unit, *alone)
                    .into_iter()
                    .map(|u| self.def(u).token.clone())
                    .collect();
                info.hex = Some(self.battle.map.id(*to));
                info.facing = Some(*facing);
                if !via.is_empty() {
                    info.path = via
                        .iter()
                        .chain(std::iter::once(to))
                        .map(|h| self.battle.map.id(*h))
                        .collect();
                }
                info.label = format!(
                    "Move {}{} to {} facing {facing}",
                    self.name(*unit),
                    if *alone { " alone" } else { "" },
                    self.id(*to)
                );
            }
            Action::Select { unit } => {
                self.about_unit(&mut info, *unit);
                info.label = format!("Select {} to move", self.name(*unit));
            }
            Action::SelectLeader { leader } => {
                self.about_leader(&mut info, *leader);
                info.label = format!("Select {} to move", self.leader_name(*leader));
            }
            Action::Deselect => match self.selected {
                Some(Pick::Unit(u)) => {
                    self.about_unit(&mut info, u);
                    info.label = format!("Put {} back unmoved", self.name(u));
                }
                Some(Pick::Leader(l)) => {
                    self.about_leader(&mut info, l);
                    info.label = format!("Put {} back unmoved", self.leader_name(l));
                }
                None => info.label = "Deselect".into(),
            },
            Action::MoveLeader { leader, to } => {
                self.about_leader(&mut info, *leader);
                info.hex = Some(self.battle.map.id(*to));
                info.label = format!("Move {} to {}", self.leader_name(*leader), self.id(*to));
            }
            Action::Withdraw { unit, to } => {
                self.about_unit(&mut info, *unit);
                info.hex = Some(self.battle.map.id(*to));
                info.label = format!("Withdraw {} to {}", self.name(*unit), self.id(*to));
            }
            Action::Retreat { unit, to } => {
                self.about_unit(&mut info, *unit);
                info.hex = Some(self.battle.map.id(*to));
                info.label = format!("Retreat {} to {}", self.name(*unit), self.id(*to));
            }
            Action::Pursue { unit, to, facing } => {
                self.about_unit(&mut info, *unit);
                info.hex = Some(self.battle.map.id(*to));
                info.facing = Some(*facing);
                info.label = format!(
                    "Pursue with {} to {} facing {facing}",
                    self.name(*unit),
                    self.id(*to)
                );
            }
            Action::Advance { unit } => {
                self.about_unit(&mut info, *unit);
                info.label = format!("Advance {} into the vacated hex", self.name(*unit));
            }
            Action::Face { unit, facing } => {
                self.about_unit(&mut info, *unit);
                info.facing = Some(*facing);
                if let Some(h) = self.hex(*unit) {
                    info.hex = Some(self.battle.map.id(h));
                }
                info.label = format!("Turn {} to face {facing}", self.name(*unit));
            }
            Action::Fire { unit, target } => self.describe_fire(&mut info, *unit, *target),
            Action::Melee { target, attackers } => {
                self.describe_melee(&mut info, *target, attackers)
            }
            Action::Split { leader } => {
                self.about_leader(&mut info, *leader);
                info.label = format!("Split {}'s command (16.3)", self.leader_name(*leader));
            }
            Action::Rejoin { leader } => {
                self.about_leader(&mut info, *leader);
                info.label = format!("Rejoin {}'s command (16.3)", self.leader_name(*leader));
            }
            Action::Activate { leader, action } => {
                self.about_leader(&mut info, *leader);
                info.label = format!(
                    "Activate {}'s command to {} (16.11)",
                    self.leader_name(*leader),
                    action.name()
                );
            }
            Action::RetreatCommand { leader } => {
                self.about_leader(&mut info, *leader);
                info.label = format!(
                    "Give {} the Retreat command instead of conceding (16.5)",
                    self.leader_name(*leader)
                );
            }
            Action::LoseStep { unit } => {
                self.about_unit(&mut info, *unit);
                info.label = format!(
                    "{} loses a step instead of retreating (16.5)",
                    self.name(*unit)
                );
            }
            Action::EndMovement
            | Action::StandFast
            | Action::EndWithdrawal
            | Action::EndFire
            | Action::EndMelee
            | Action::Halt
            | Action::EndCombat
            | Action::Draw { .. }
            | Action::Pass
            | Action::Concede
            | Action::CheckMorale => {}
        }
        info
    }

    /// The action is about unit `u`.
    fn about_unit(&self, info: &mut ActionInfo, u: UnitId) {
        info.counters = vec![self.def(u).token.clone()];
    }

    /// The action is about leader `l`.
    fn about_leader(&self, info: &mut ActionInfo, l: LeaderId) {
        info.counters = vec![self.battle.leaders[l as usize].token.clone()];
    }

    /// 9.1: the column and every modifier of `u`'s fire at `target`.
    fn describe_fire(&self, info: &mut ActionInfo, u: UnitId, target: Hex) {
        self.about_unit(info, u);
        info.hex = Some(self.battle.map.id(target));
        let defenders = self.stack_at(target);
        info.targets = defenders
            .iter()
            .map(|&d| self.def(d).token.clone())
            .collect();
        info.label = format!("{} fires at {}", self.name(u), self.id(target));
        let (Some(from), Some(&top)) = (self.hex(u), defenders.first()) else {
            return;
        };
        let t = &self.battle.tables;
        let col = self.battle.utype(u).fire_column.unwrap_or(0);
        info.details
            .push(format!("Fire Table, column {} (9.1)", t.fire.columns[col]));
        let mods = self.fire_modifiers(u, from, target, top);
        info.details.extend(modifier_lines("", &mods));
    }

    /// 9.32: both sides' strengths, columns and modifiers of a melee as the attacker sees it.
    fn describe_melee(&self, info: &mut ActionInfo, target: Hex, reps: &[UnitId]) {
        let mut attackers = Vec::new();
        for &r in reps {
            attackers.push(r);
            attackers.extend(self.stack_mate(r));
        }
        info.counters = attackers
            .iter()
            .map(|&a| self.def(a).token.clone())
            .collect();
        info.hex = Some(self.battle.map.id(target));
        let defenders = self.stack_at(target);
        info.targets = defenders
            .iter()
            .map(|&d| self.def(d).token.clone())
            .collect();
        info.label = format!(
            "{} {} {}",
            attackers
                .iter()
                .map(|&a| self.name(a))
                .collect::<Vec<_>>()
                .join(", "),
            if attackers.len() > 1 {
                "attack"
            } else {
                "attacks"
            },
            self.id(target)
        );
        if defenders.is_empty() {
            return;
        }
        let (att, def) = self.melee_sides(&attackers, &defenders, target, false);
        let columns = &self.battle.tables.melee.columns;
        info.details.push(format!(
            "attacker: strength {}, Melee Table column {}",
            att.strength, columns[att.column]
        ));
        info.details.extend(modifier_lines("attacker ", &att.mods));
        info.details.push(format!(
            "defender: strength {}, Melee Table column {}",
            def.strength, columns[def.column]
        ));
        info.details.extend(modifier_lines("defender ", &def.mods));
        info.details.push(
            "the defender's command chit is hidden: a Stand chit would add +1 to its roll (5.13)"
                .into(),
        );
    }
}

/// One line per modifier: `attacker +1 Attack command (5.11)`.
fn modifier_lines<'a>(side: &'a str, mods: &'a [Modifier]) -> impl Iterator<Item = String> + 'a {
    mods.iter()
        .map(move |m| format!("{side}{:+} {}", m.value, m.reason))
}
