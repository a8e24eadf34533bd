//! The Sequence of Play (4.0) of the Third Crusade: the Order Segment with reinforcements
//! (16.4), the Random Events Phase (14.0, 12.6), the Movement Phase with attrition (6.0,
//! 6.4, 11.0, 12.2, 12.5), the Combat Phase (12.4, 9.0), the Siege Phase (10.0), and the end of
//! the turn: disruption, control (16.5.3) and, after August II 1192, victory (16.5).

use std::collections::{BTreeMap, BTreeSet};

use engine::{Event, Log};

use crate::attrition::{movement_loss, path_aps, spread_loss, still_aps, Sharing};
use crate::map::Place;
use crate::movement::{self, walk};
use crate::naval::{self, NavalTurn};
use crate::orders::Order;
use crate::scenario::Side;
use crate::state::{FleetStatus, Phase, State, Status};
use crate::supply;
use crate::zoi::{self, Zones};

/// A force's march this turn: its side, its leaders (the head first), where it started, the
/// places it entered, and the ASPs its head left behind (6.1.2 B).
type March = (Side, Vec<usize>, Place, Vec<Place>, u16);

impl State {
    /// The Crusades 4.0 D, 16.4: starts a turn's Order Segment: reinforcements arrive,
    /// removed fleets return in March II (12.6.2), and both books are blank.
    pub fn begin_turn(&mut self, log: &mut Log) {
        self.orders = Default::default();
        self.phase = Phase::Orders;
        for l in &mut self.leaders {
            l.moved = false;
            l.landed_from = None;
        }
        for i in 0..self.leaders.len() {
            let at_start = match (self.leaders[i].status, self.leaders[i].place) {
                (Status::Active, Some(p)) if p.inside => self
                    .scenario
                    .map
                    .site_at(p.hex)
                    .is_some_and(|s| self.friendly_site(s, self.side_of(i))),
                _ => false,
            };
            self.leaders[i].in_friendly_city_at_start = at_start;
        }
        naval::winter_return(self, log);
        let arriving: Vec<usize> = (0..self.scenario.reinforcements.len())
            .filter(|&r| self.scenario.reinforcements[r].turn == self.turn)
            .collect();
        self.arrivals.clear();
        for r in arriving {
            let entries = self.entry_hexes(r);
            match entries.as_slice() {
                [only] => self.place_reinforcement(r, *only, log),
                _ => self.arrivals.push(r),
            }
        }
        self.next_arrival();
        let name = self.turn_info().name.clone();
        log.push_with(|| Event::public("The Crusades 4.0", format!("{name}: Order Segment")));
    }

    /// The Crusades 16.4.1-16.4.2: the places where reinforcement `r` may enter now: its
    /// printed place or any hex of its `choices` (16.4.1: Richard's any all-sea hex of the
    /// western edge north of Beirut); when the Crusaders occupy a Saracen city of arrival, any
    /// of its fallback hexes instead (16.4.2). The owner chooses when there are several.
    pub fn entry_hexes(&self, r: usize) -> Vec<Place> {
        let r = &self.scenario.reinforcements[r];
        let map = &self.scenario.map;
        let blocked = map
            .site_at(r.place.hex)
            .is_some_and(|s| self.occupier(s).is_some_and(|o| o.enemy_of(r.side)));
        if blocked && !r.fallback.is_empty() {
            return r.fallback.iter().map(|&h| Place::outside(h)).collect();
        }
        let mut out = vec![r.place];
        out.extend(r.choices.iter().map(|&h| Place::outside(h)));
        out
    }

    /// Moves to the next reinforcement waiting for its owner's choice of entry (16.4), or to
    /// the Order Segment's orders when none waits.
    /// After them, the parley over prisoners (9.7.6).
    pub fn next_arrival(&mut self) {
        match self.arrivals.first() {
            Some(&r) => self.phase = Phase::Arrival(self.scenario.reinforcements[r].side),
            None => crate::captives::start_parley(self),
        }
    }

    /// The Crusades 16.4: reinforcement `r` enters at `place`, its leaders aboard its fleets
    /// when that is at sea (16.4.1).
    pub fn place_reinforcement(&mut self, r: usize, place: Place, log: &mut Log) {
        let r = self.scenario.reinforcements[r].clone();
        for &f in &r.fleets {
            self.fleets[f].status = FleetStatus::Active;
            self.fleets[f].hex = Some(place.hex);
        }
        for &l in &r.leaders {
            if self.scenario.map.is_land(place.hex) || r.fleets.is_empty() {
                self.leaders[l].status = Status::Active;
                self.leaders[l].place = Some(place);
            } else {
                // 16.4.1: arriving by sea, aboard their fleets.
                let f = r.fleets[l % r.fleets.len()];
                self.leaders[l].status = Status::Aboard(f);
                self.leaders[l].place = None;
            }
        }
        let names = r
            .leaders
            .iter()
            .map(|&l| self.scenario.leaders[l].id.clone())
            .collect::<Vec<_>>()
            .join(", ");
        log.push_with(|| {
            Event::public(
                "The Crusades 16.4",
                format!(
                    "reinforcements for the {} at {place}: {names}",
                    r.side.name()
                ),
            )
        });
    }

    /// Both seats have committed: the orders are revealed (5.0), then the Random Events
    /// Phase (14.0, 12.6.1).
    pub fn orders_revealed(&mut self, log: &mut Log) {
        if log.is_recording() {
            for side in [Side::Crusaders, Side::Saracens] {
                let book = self.book(side).clone();
                let mut lines = Vec::new();
                for (l, o) in &book.leaders {
                    lines.push(
                        crate::action::Action::Order {
                            leader: *l,
                            order: o.clone(),
                        }
                        .text(self),
                    );
                }
                for (f, o) in &book.fleets {
                    lines.push(
                        crate::action::Action::Fleet {
                            fleet: *f,
                            order: o.clone(),
                        }
                        .text(self),
                    );
                }
                for &leader in &book.command {
                    lines.push(crate::action::Action::Command { leader }.text(self));
                }
                for (&leader, &asps) in &book.take {
                    lines.push(crate::action::Action::Take { leader, asps }.text(self));
                }
                for &leader in &book.losses {
                    lines.push(crate::action::Action::Losses { leader }.text(self));
                }
                for (&prisoner, &leader) in &book.escort {
                    lines.push(crate::action::Action::Escort { leader, prisoner }.text(self));
                }
                let text = format!(
                    "orders of the {}: {}",
                    side.name(),
                    if lines.is_empty() {
                        "none".into()
                    } else {
                        lines.join("; ")
                    }
                );
                log.push_with(|| Event::public("The Crusades 5.0", text));
            }
        }
        naval::winter_removal(self, log);
        self.assassins = crate::events::random_events_phase(self, log);
        self.after_assassination_step(log);
    }

    /// Called after an assassination decision.
    pub fn after_assassination(&mut self, log: &mut Log) {
        if !self.assassins.is_empty() {
            self.assassins.remove(0);
        }
        self.after_assassination_step(log);
    }

    fn after_assassination_step(&mut self, log: &mut Log) {
        let assassins: Vec<Side> = self
            .assassins
            .iter()
            .copied()
            .filter(|&s| !crate::events::targets(self, s).is_empty())
            .collect();
        self.assassins = assassins;
        match self.assassins.first() {
            Some(&s) => self.phase = Phase::Assassination(s),
            None => self.resolve_turn(log),
        }
    }

    /// The Movement, Combat and Siege Phases, then the end of the turn.
    fn resolve_turn(&mut self, log: &mut Log) {
        let sallied = self.movement_phase(log);
        let mut naval_turn = NavalTurn::default();
        naval::debark(self, log, &mut naval_turn);
        naval::naval_combat(self, log, &mut naval_turn);
        naval::debark(self, log, &mut naval_turn);
        naval::end_of_movement(self, log, &naval_turn);
        crate::combat::combat_phase(self, log, &sallied);
        // 9.4.1 C: a sally that was not thrown back may go back into the city.
        for &l in &sallied {
            if let (Status::Active, Some(p)) = (self.leaders[l].status, self.leaders[l].place) {
                let side = self.side_of(l);
                let site = self.scenario.map.site_at(p.hex);
                if !p.inside && site.is_some_and(|s| self.occupier(s).is_none_or(|o| o == side)) {
                    self.leaders[l].place = Some(Place::inside(p.hex));
                }
            }
        }
        self.enter_won_cities();
        self.siege_next = 0;
        self.surrender = None;
        self.continue_sieges(log);
    }

    /// The Siege Phase (10.0) from where it stopped, then the end of the turn; stops again
    /// for a decision about surrender (10.4.2).
    pub fn continue_sieges(&mut self, log: &mut Log) {
        if crate::siege::siege_phase(self, log) {
            return;
        }
        self.end_turn(log);
    }

    /// The Crusades 6.0-6.4, 7.2, 9.1 B, 6.3.2, 11.2, 12.2: every written move at once.
    /// Returns the leaders who sallied (5.3).
    fn movement_phase(&mut self, log: &mut Log) -> BTreeSet<usize> {
        let name = self.turn_info().name.clone();
        log.push_with(|| Event::public("The Crusades 6.0", format!("{name}: Movement Phase")));
        self.take_up_asps(log);
        let defending = zoi::defending(self);
        let stays = |s: &State, l: usize| movement::stays(s, l);
        let zones = Zones::compute(self, &|l| stays(self, l), &defending);
        // 11.1.7: lines are judged at the beginning of the Movement Phase, per force.
        let mut supplied: BTreeMap<usize, bool> = BTreeMap::new();
        let mut heads: BTreeMap<(Side, usize), Vec<usize>> = BTreeMap::new();
        for l in 0..self.leaders.len() {
            if self.leaders[l].status != Status::Active {
                continue;
            }
            let side = self.side_of(l);
            let h = self.book(side).head(l);
            // A leader whose head died (14.2) or stands elsewhere leads himself, under the
            // same written order.
            let head = if self.leaders[h].status == Status::Active
                && self.leaders[h].place == self.leaders[l].place
            {
                h
            } else {
                l
            };
            heads.entry((side, head)).or_default().push(l);
        }
        for ((side, _), group) in &heads {
            let place = self.leaders[group[0]].place.expect("active");
            let asps = group.iter().map(|&l| self.leaders[l].asps).sum();
            let ok = supply::has_loc(self, &zones, *side, place, asps);
            for &l in group {
                supplied.insert(l, ok);
            }
        }
        naval::move_fleets(self, log);
        // Which cities hold enemies who stay (for entering cities, 10.3.7, 9.1 C).
        let held: Vec<Option<Side>> = (0..self.scenario.map.sites.len())
            .map(|s| {
                let hex = self.scenario.map.sites[s].hex;
                let inside = Place::inside(hex);
                let stayer = self
                    .leaders_at(inside)
                    .find(|&l| stays(self, l))
                    .map(|l| self.side_of(l));
                stayer
                    .or_else(|| {
                        self.garrisons
                            .iter()
                            .find(|g| g.place == inside && g.asps > 0)
                            .map(|g| g.side)
                    })
                    .or_else(|| {
                        if self.sites[s].castle_garrison {
                            self.sites[s].control
                        } else {
                            None
                        }
                    })
            })
            .collect();
        let mut moves: Vec<March> = Vec::new();
        let mut sallied = BTreeSet::new();
        for ((side, head), group) in &heads {
            let book = self.book(*side);
            let Some(start) = self.leaders[*head].place else {
                continue;
            };
            match book.effective(*head) {
                Order::Move { path, leave } => {
                    let ok = supplied.get(head).copied().unwrap_or(true);
                    let r = walk(self, &zones, *side, start, &path, ok, &|site| {
                        held[site].is_some_and(|h| h.enemy_of(*side))
                    });
                    if let Some(why) = &r.stopped {
                        let id = self.scenario.leaders[*head].id.clone();
                        let why = why.clone();
                        log.push_with(|| {
                            Event::public("The Crusades 6.2.2", format!("{id} stops: {why}"))
                        });
                    }
                    moves.push((*side, group.clone(), start, r.entered, leave));
                }
                Order::Sally if start.inside => {
                    sallied.extend(group.iter().copied());
                    moves.push((
                        *side,
                        group.clone(),
                        start,
                        vec![Place::outside(start.hex)],
                        0,
                    ));
                }
                _ => {}
            }
        }
        for (side, group, start, entered, leave) in &moves {
            let head = group[0];
            if *leave > 0 {
                let n = (*leave).min(self.leaders[head].asps);
                self.leaders[head].asps -= n;
                self.add_garrison(*side, *start, n);
            }
            if let Some(&end) = entered.last() {
                for &l in group {
                    self.leaders[l].place = Some(end);
                    self.leaders[l].moved = true;
                }
            }
        }
        // 9.7.6 C: prisoners set out with their guards.
        let marches: Vec<(Vec<usize>, Place, Place)> = moves
            .iter()
            .filter(|m| !sallied.contains(&m.1[0]))
            .filter_map(|(_, group, start, entered, _)| {
                entered.last().map(|&end| (group.clone(), *start, end))
            })
            .collect();
        let escorted = crate::captives::set_out(self, log, &marches);
        self.contested_cities(&moves);
        // 7.2.2 B: a force that ended beside an enemy city must besiege it next turn.
        for (side, group, _, entered, _) in &moves {
            let Some(end) = entered.last() else { continue };
            let site = self.scenario.map.site_at(end.hex);
            if !end.inside && site.is_some_and(|s| held[s].is_some_and(|h| h.enemy_of(*side))) {
                for &l in group {
                    self.leaders[l].must_besiege = Some(end.hex);
                }
            }
        }
        // 6.4: attrition after all movement.
        for (side, group, _, entered, _) in &moves {
            if entered.is_empty() || sallied.contains(&group[0]) {
                continue;
            }
            let asps: u16 = group.iter().map(|&l| self.leaders[l].asps).sum();
            let aps = path_aps(self, entered);
            let ok = supplied.get(&group[0]).copied().unwrap_or(true);
            let loss = movement_loss(self, *side, asps, aps, true, ok, false);
            if loss.asps > 0 {
                spread_loss(self, group, *side, None, loss.asps, Sharing::Attrition);
            }
            let id = self.scenario.leaders[group[0]].id.clone();
            log.push_with(|| {
                Event::public(
                    "The Crusades 6.4.3",
                    format!(
                        "{id}'s force of {asps} ASPs gathers {} APs and loses {} ASPs{}",
                        loss.aps,
                        loss.asps,
                        if ok {
                            ""
                        } else {
                            " (no line of communications)"
                        }
                    ),
                )
            });
        }
        // 6.4.7, 13.2.5, 6.4.6 B: forces that did not move, outside cities, not besieging.
        let moved_heads: BTreeSet<usize> = moves.iter().map(|m| m.1[0]).collect();
        for ((side, head), group) in &heads {
            if moved_heads.contains(head) {
                continue;
            }
            let group: Vec<usize> = group
                .iter()
                .copied()
                .filter(|&l| self.leaders[l].status == Status::Active && !self.leaders[l].moved)
                .collect();
            let Some(&first) = group.first() else {
                continue;
            };
            let Some(place) = self.leaders[first].place else {
                continue;
            };
            let order = self.book(*side).effective(*head);
            if place.inside || matches!(order, Order::FullSiege | Order::PartialSiege) {
                continue;
            }
            let still = self.leaders[first].still.saturating_add(1);
            let aps = still_aps(self, place.hex, still);
            let ok = supplied.get(&first).copied().unwrap_or(true);
            let asps: u16 = group.iter().map(|&l| self.leaders[l].asps).sum();
            let loss = movement_loss(self, *side, asps, aps, false, ok, true);
            if loss.asps > 0 {
                spread_loss(self, &group, *side, None, loss.asps, Sharing::Attrition);
                let id = self.scenario.leaders[first].id.clone();
                log.push_with(|| {
                    Event::public(
                        "The Crusades 6.4.7",
                        format!(
                            "{id}'s force stands still ({still} turns, {} APs) and loses {} ASPs",
                            loss.aps, loss.asps
                        ),
                    )
                });
            }
        }
        crate::captives::arrive(self, log, escorted);
        sallied
    }

    /// The Crusades 6.1.2 A, 8.0 I: before anything moves, each Saracen leader with a written
    /// `take` line attaches that many leaderless ASPs of his place (as many as are left there).
    fn take_up_asps(&mut self, log: &mut Log) {
        let takes = self.book(Side::Saracens).take.clone();
        for (l, n) in takes {
            let (Status::Active, Some(place)) = (self.leaders[l].status, self.leaders[l].place)
            else {
                continue;
            };
            let got = self.take_garrison(Side::Saracens, place, n);
            self.leaders[l].asps += got;
            if got > 0 {
                let id = self.scenario.leaders[l].id.clone();
                log.push_with(|| {
                    Event::public(
                        "The Crusades 6.1.2",
                        format!("{id} takes up {got} leaderless ASPs at {place}"),
                    )
                });
            }
        }
    }

    /// The Crusades 9.1 B, 6.3.2: when both sides moved into one empty city both stand
    /// outside it; ASPs above a city's limit stand outside.
    fn contested_cities(&mut self, moves: &[March]) {
        let scenario = std::sync::Arc::clone(&self.scenario);
        let map = &scenario.map;
        for (si, site) in map.sites.iter().enumerate() {
            let inside = Place::inside(site.hex);
            let sides = self.sides_at(inside);
            if sides.len() > 1 {
                for (_, group, _, entered, _) in moves {
                    if entered.last() == Some(&inside) {
                        for &l in group {
                            self.leaders[l].place = Some(Place::outside(site.hex));
                        }
                    }
                }
            }
            let cap = self.scenario.tables.capacity(site.castle, site.level);
            for side in self.sides_at(inside) {
                let mut over = self.asps_at(side, inside).saturating_sub(cap);
                let mut movers: Vec<usize> = self
                    .side_leaders_at(side, inside)
                    .into_iter()
                    .filter(|&l| self.leaders[l].moved)
                    .collect();
                while over > 0 {
                    let Some(l) = movers.pop() else { break };
                    over = over.saturating_sub(self.leaders[l].asps);
                    self.leaders[l].place = Some(Place::outside(site.hex));
                }
            }
            let _ = si;
        }
    }

    /// The Crusades 9.1 B: after combat the victor may move into the city he was ordered to
    /// enter, if it is now empty of enemies.
    fn enter_won_cities(&mut self) {
        for side in [Side::Crusaders, Side::Saracens] {
            let book = self.book(side).clone();
            for l in 0..self.leaders.len() {
                if self.leaders[l].status != Status::Active || self.side_of(l) != side {
                    continue;
                }
                let Some(place) = self.leaders[l].place else {
                    continue;
                };
                if place.inside {
                    continue;
                }
                let Order::Move { path, .. } = book.effective(l) else {
                    continue;
                };
                let inside = Place::inside(place.hex);
                let Some(site) = self.scenario.map.site_at(place.hex) else {
                    continue;
                };
                let enemy_outside = self.sides_at(place).iter().any(|s| s.enemy_of(side));
                if path.last() == Some(&inside)
                    && self.occupier(site).is_none_or(|o| o == side)
                    && !enemy_outside
                {
                    self.leaders[l].place = Some(inside);
                }
            }
        }
    }

    /// The end of the turn: disruption ends after a turn in a friendly city (9.6 E), turns
    /// standing still are counted (6.4.7), control follows occupation (16.5.3 A), and the game
    /// ends after its last turn (16.1, 16.5).
    fn end_turn(&mut self, log: &mut Log) {
        for i in 0..self.leaders.len() {
            if self.leaders[i].status != Status::Active {
                continue;
            }
            let side = self.side_of(i);
            let order = self.book(side).effective(i);
            let l = &mut self.leaders[i];
            if l.disrupted && l.in_friendly_city_at_start && l.place.is_some_and(|p| p.inside) {
                l.disrupted = false;
            }
            let besieging = matches!(order, Order::FullSiege | Order::PartialSiege);
            if besieging {
                l.must_besiege = None;
            }
            if l.moved || l.place.is_some_and(|p| p.inside) || besieging {
                l.still = 0;
            } else {
                l.still = l.still.saturating_add(1);
            }
            if l.must_besiege
                .is_some_and(|h| l.place.map(|p| p.hex) != Some(h))
            {
                l.must_besiege = None;
            }
        }
        for si in 0..self.sites.len() {
            let hex = self.scenario.map.sites[si].hex;
            let inside = Place::inside(hex);
            let sides = self.sides_at(inside);
            // 15.0, 16.2.3: an unwoken neutral holds his city for the neutrals.
            let neutral_only = self.garrisons.iter().all(|g| g.place != inside)
                && self.leaders_at(inside).all(|l| self.leaders[l].neutral);
            if neutral_only {
                continue;
            }
            if let [side] = sides.as_slice() {
                if self.sites[si].control != Some(*side) {
                    let name = self.scenario.map.sites[si].name.clone();
                    let who = side.name();
                    log.push_with(|| {
                        Event::public(
                            "The Crusades 16.5.3",
                            format!("the {who} take control of {name}"),
                        )
                    });
                    self.sites[si].control = Some(*side);
                    self.sites[si].castle_garrison = self.scenario.map.sites[si].castle;
                }
            }
        }
        crate::captives::check_holdings(self, log);
        if self.turn + 1 >= self.scenario.turns.len() {
            let o = crate::victory::outcome(self);
            let text = format!("{} {}", o.reason, o.level.clone().unwrap_or_default());
            log.push_with(|| Event::public("The Crusades 16.5", text));
            self.outcome = Some(o);
            self.phase = Phase::Over;
            return;
        }
        self.turn += 1;
        self.begin_turn(log);
    }
}
