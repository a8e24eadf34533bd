//! Actions described for a player choosing them (the web client's counters, hexes, targets
//! and details), from what the deciding seat may see only.

use engine::{ActionInfo, Seat};
use hexgrid::{Hex, HexId};

use crate::action::Action;
use crate::fire::{self, Firer};
use crate::melee;
use crate::retreat::Step as RetreatStep;
use crate::setup::Piece;
use crate::state::State;

impl State {
    fn hex_id(&self, hex: Hex) -> Option<HexId> {
        self.rules.map.grid.id_of(hex)
    }

    fn firer_piece(f: Firer) -> Piece {
        match f {
            Firer::Unit(u) => Piece::Unit(u),
            Firer::Siege(e) => Piece::Siege(e),
        }
    }

    /// `action` described for `seat`.
    pub fn describe(&self, _seat: Seat, action: &Action) -> ActionInfo {
        let r = &self.rules;
        let mut info = ActionInfo::from_notation(action.text(self));
        let name = |p: Piece| p.name(r).to_string();
        let target_of = |hex: Hex| -> Vec<String> {
            self.pos
                .unit_at(hex)
                .map(|u| vec![self.slug(Piece::Unit(u))])
                .unwrap_or_default()
        };
        match action {
            Action::DeployHistorical => {
                info.label = "Set up the whole side as in the historical quick start (17.0)".into();
            }
            Action::Place(p, hex) => {
                info.counters = vec![self.slug(*p)];
                info.hex = self.hex_id(*hex);
                info.label = format!("Place {} in {}", name(*p), self.id(*hex));
            }
            Action::Plan(plan) => info.label = format!("Commit the secret plan: {}", plan.text()),
            Action::Select(p) => {
                info.counters = vec![self.slug(*p)];
                info.label = format!("Select {} to move", name(*p));
            }
            Action::Move(hex) => {
                if let Some(p) = self.work.selected {
                    info.counters = vec![self.slug(p)];
                    info.label = format!("Move {} to {}", name(p), self.id(*hex));
                }
                info.hex = self.hex_id(*hex);
            }
            Action::Charge(to, target) => {
                if let Some(p) = self.work.selected {
                    info.counters = vec![self.slug(p)];
                    info.label = format!(
                        "{} charges: moves to {} and charges the unit in {} (15.21, 15.22)",
                        name(p),
                        self.id(*to),
                        self.id(*target)
                    );
                }
                info.hex = self.hex_id(*to);
                info.targets = target_of(*target);
                info.details = vec![
                    "the last four hexes Clear and in a straight line (15.21)".into(),
                    "double Melee Strength against this unit in the Crusader Melee Segment (15.21)"
                        .into(),
                    "may not be fired upon this Impulse (15.23)".into(),
                    "disrupted once its melee is resolved (15.21)".into(),
                ];
            }
            Action::Grenade(hex) => {
                if let Some(g) = (0..r.units.len()).find(|&g| r.unit_type(g).grenadier) {
                    info.counters = vec![self.slug(Piece::Unit(g))];
                }
                info.hex = self.hex_id(*hex);
                info.targets = target_of(*hex);
                info.label = format!("Naphtha grenade attack on {} (15.3)", self.id(*hex));
                let left = r
                    .scenario
                    .engineering
                    .naphtha_grenades
                    .saturating_sub(self.grenades);
                info.details = vec![
                    "the defender retreats, no die rolled (15.3)".into(),
                    format!("{left} grenade attacks left this game"),
                ];
                if let Some(g) = (0..r.units.len()).find(|&g| r.unit_type(g).grenadier) {
                    if melee::ladder_needed(r, &self.pos, g, *hex) == Ok(true) {
                        info.details.push("ladder assault first (10.3)".into());
                    }
                }
            }
            Action::Deselect => info.label = "Leave the selected counter where it is".into(),
            Action::Base(hex) | Action::Search(hex) | Action::CaveIn(hex) | Action::Repair(hex) => {
                info.hex = self.hex_id(*hex);
            }
            Action::Dig(b, hex) => {
                info.hex = self.hex_id(*hex);
                info.label = format!(
                    "Allocate a Tunnel Point: tunnel {} into {}",
                    b + 1,
                    self.id(*hex)
                );
            }
            Action::Bombard(e, hex) => {
                info.counters = vec![self.slug(Piece::Siege(*e))];
                info.hex = self.hex_id(*hex);
                let level = self.pos.damage.get(hex).copied().unwrap_or(0);
                info.details = vec![format!(
                    "damage level now {level} of {}",
                    r.tables.breach_level
                )];
            }
            Action::Counter(c, t) => {
                info.counters = vec![self.slug(Piece::Siege(*c))];
                info.targets = vec![self.slug(Piece::Siege(*t))];
                info.hex = self.pos.siege[*t].at.hex().and_then(|h| self.hex_id(h));
            }
            Action::Fire(f, hex) => {
                info.counters = vec![self.slug(Self::firer_piece(*f))];
                info.hex = self.hex_id(*hex);
                info.targets = target_of(*hex);
                if let (Ok(rating), Some(t)) = (
                    fire::check_fire(r, &self.pos, *f, *hex, &[]),
                    self.pos.unit_at(*hex),
                ) {
                    let from = match f {
                        Firer::Unit(u) => self.pos.hex_of(*u),
                        Firer::Siege(e) => self.pos.siege[*e].at.hex(),
                    }
                    .unwrap_or(*hex);
                    info.details = vec![
                        format!("Range Attenuation Rating {rating} (9.4)"),
                        format!(
                            "modifier {:+} (9.5)",
                            fire::target_modifier(r, &self.pos, t, from)
                        ),
                    ];
                }
            }
            Action::Fill(u, hex) => {
                info.counters = vec![self.slug(Piece::Unit(*u))];
                info.hex = self.hex_id(*hex);
            }
            Action::Attack(hex) => {
                info.hex = self.hex_id(*hex);
                info.targets = target_of(*hex);
            }
            Action::Join(u) => {
                info.counters = vec![self.slug(Piece::Unit(*u))];
                if let Some(m) = &self.work.melee {
                    info.hex = self.hex_id(m.target);
                    info.targets = target_of(m.target);
                    if melee::ladder_needed(r, &self.pos, *u, m.target) == Ok(true) {
                        info.details = vec!["ladder assault (10.3)".into()];
                    }
                    if !self.chargers(&[*u], m.target).is_empty() {
                        info.details
                            .push("charging: double Melee Strength (15.21)".into());
                    }
                }
            }
            Action::Resolve => {
                if let Some(m) = &self.work.melee {
                    info.counters = m
                        .attackers
                        .iter()
                        .map(|&u| self.slug(Piece::Unit(u)))
                        .collect();
                    info.hex = self.hex_id(m.target);
                    info.targets = target_of(m.target);
                    if let Some(d) = self.pos.unit_at(m.target) {
                        let chargers = self.chargers(&m.attackers, m.target);
                        let (a, dd) =
                            melee::strengths(r, &self.pos, &m.attackers, &chargers, d, self.conrad);
                        let odds = melee::odds_column(a, dd).map_or("under 1-2".to_string(), |c| {
                            r.tables.melee.columns.get(c).cloned().unwrap_or_default()
                        });
                        info.details = vec![format!(
                            "attack {} against defence {}: {odds} (10.8)",
                            f64::from(a) / 2.0,
                            f64::from(dd) / 2.0
                        )];
                        if !chargers.is_empty() {
                            info.details
                                .push("charging knights at double strength (15.21)".into());
                        }
                        for l in self.lending_leaders(&m.attackers) {
                            let leader = &r.leaders[l].name;
                            match melee::leader_ladder_needed(r, &self.pos, l, m.target) {
                                Ok(true) => info.details.push(format!(
                                    "{leader} must climb by ladder to lend his ratings (10.32)"
                                )),
                                Err(_) => info.details.push(format!(
                                    "{leader} cannot reach the wall: his ratings will not count (10.32)"
                                )),
                                Ok(false) => {}
                            }
                        }
                    }
                }
            }
            Action::Retreat(u, step) => {
                info.counters = vec![self.slug(Piece::Unit(*u))];
                if let RetreatStep::To(h) = step {
                    info.hex = self.hex_id(*h);
                }
            }
            Action::Hold(u) => {
                info.counters = vec![self.slug(Piece::Unit(*u))];
                info.label = format!(
                    "{} takes a step loss and holds the wall (9.27)",
                    name(Piece::Unit(*u))
                );
            }
            Action::Evade => info.label = "Retreat the defender before combat (10.21)".into(),
            Action::Stand => info.label = "Stand and fight (10.21)".into(),
            Action::Stop(u) => {
                info.counters = vec![self.slug(Piece::Unit(*u))];
                info.label = format!(
                    "{} stops its retreat before combat here (10.21)",
                    name(Piece::Unit(*u))
                );
            }
            Action::Follow(l) => {
                info.counters = vec![self.slug(Piece::Leader(*l))];
                info.label = format!(
                    "{} goes along with the unit that retreated (9.22)",
                    name(Piece::Leader(*l))
                );
            }
            Action::Stay(l) => {
                info.counters = vec![self.slug(Piece::Leader(*l))];
                info.label = format!("{} stays where he is (9.22)", name(Piece::Leader(*l)));
            }
            Action::Advance(p, hex) => {
                info.counters = vec![self.slug(*p)];
                info.hex = self.hex_id(*hex);
                info.label = format!(
                    "{} advances after combat to {} (10.7)",
                    name(*p),
                    self.id(*hex)
                );
                if let Some(a) = &self.work.advance {
                    let path: Vec<String> = a.path.iter().map(|h| self.id(*h)).collect();
                    info.details = vec![format!("Path of Retreat: {}", path.join(" "))];
                    let knight = matches!(p, Piece::Unit(u) if r.unit_type(*u).knight
                        && r.side_of(*u) == crate::rules::Side::Crusader);
                    if knight {
                        info.details
                            .push("knights advance as far as they can (10.74)".into());
                    }
                }
            }
            Action::End if self.work.advance.is_some() => {
                info.label = "End the advance after combat (10.7)".into()
            }
            Action::End => info.label = "End this segment".into(),
            Action::EndAssault => {
                info.label = "Agree to end the Assault Phase after this Impulse".into()
            }
            Action::Continue => info.label = "Play another Impulse".into(),
        }
        info
    }
}
