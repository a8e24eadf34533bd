//! 11.0 Victory Conditions: counting losses, the victory rolls of the Rally Phase, and the
//! result at the end of the last turn (12.1, 13.1, 14.1, 15.1).

use std::collections::VecDeque;

use engine::{Event, Log, Outcome, RollRecord, Seat};
use hexgrid::Direction;

use crate::scenario::AtEnd;
use crate::state::{CrossState, Loc, Phase, State};

/// A victory roll made (11.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VictoryRoll {
    /// Who rolled.
    pub roller: Seat,
    /// The die.
    pub roll: u8,
    /// The enemy's losses it was read against.
    pub losses: u32,
    /// Whether it won.
    pub won: bool,
}

impl State {
    /// The full strength counted for a unit's losses: its front, or for Crusader heavy
    /// cavalry its charging side (11.0).
    fn full_strength(&self, u: crate::scenario::UnitId) -> u32 {
        let d = self.def(u);
        if self.heavy(u) {
            d.back.unwrap_or(d.front).strength as u32
        } else {
            d.front.strength as u32
        }
    }

    /// The loss points of `side` (11.0): see [`State::losses_by_side`].
    pub fn losses(&self, side: Seat) -> u32 {
        self.losses_by_side()
            .get(side.index())
            .copied()
            .unwrap_or(0)
    }

    /// The loss points of each side, by seat index (11.0): eliminated units at full
    /// strength, 3 per leader and 5 per Overall Leader lost, the strength lost by reduced
    /// units on the map, the full strength of routed units, and 30 for a captured Holy Cross
    /// (12.22). One pass over the counters for both sides: a search's evaluation reads both
    /// at every leaf.
    pub fn losses_by_side(&self) -> [u32; 2] {
        let mut total = [0u32; 2];
        for (u, s) in self.units.iter().enumerate() {
            let u = u as crate::scenario::UnitId;
            let lost = match s.loc {
                Loc::Waiting => continue,
                Loc::Eliminated => self.full_strength(u),
                Loc::Map(_) if s.routed => self.full_strength(u),
                Loc::Map(_) if s.steps == 0 => continue,
                Loc::Map(_) => {
                    let now = if self.heavy(u) {
                        self.full_strength(u).saturating_sub(s.steps as u32)
                    } else {
                        self.values(u).strength as u32
                    };
                    self.full_strength(u).saturating_sub(now)
                }
            };
            if let Some(t) = total.get_mut(self.side(u).index()) {
                *t += lost;
            }
        }
        for (d, st) in self.battle.leaders.iter().zip(&self.leaders) {
            if st.replaced || st.loc == Loc::Eliminated {
                if let Some(t) = total.get_mut(d.side.index()) {
                    *t += if d.overall { 5 } else { 3 };
                }
            }
        }
        if self.holy_cross_state == CrossState::Captured {
            total[0] += self.battle.holy_cross_losses;
        }
        total
    }

    /// 11.0: in the Rally Phase of `phasing`, the opponent rolls for victory from turn 5, or
    /// sooner once the phasing side's losses reach his table. Returns true if play stops
    /// there: he won, or (16.5) the phasing player must now decide whether to concede.
    pub fn victory_roll(&mut self, phasing: Seat, log: &mut Log) -> bool {
        let roller = self.battle.enemy(phasing);
        match self.victory_die(roller, log) {
            Some(w) if w.won => {
                self.claim_victory(w, log);
                true
            }
            _ => false,
        }
    }

    /// 11.0: `roller` rolls for victory if he may: from turn 5, or sooner once the enemy's
    /// losses reach his table. `None` if he may not roll.
    pub fn victory_die(&mut self, roller: Seat, log: &mut Log) -> Option<VictoryRoll> {
        let phasing = self.battle.enemy(roller);
        let losses = self.losses(phasing);
        let table = &self.battle.victory[roller.index()];
        let &(lo, hi, need) = table
            .iter()
            .find(|(lo, hi, _)| (*lo..=*hi).contains(&losses))?;
        let threshold = table.first().map(|r| r.0).unwrap_or(u32::MAX);
        if self.turn < 4 && losses < threshold {
            return None;
        }
        self.victory_checking[roller.index()] = true;
        let roll = self.dice.d10();
        let won = roll >= need;
        let who = self.battle.seats[roller.index()].clone();
        log.push_with(|| {
            Event::public(
                "Crusades II 11.0",
                format!(
                    "{who} rolls for victory: {}",
                    if won { "victory" } else { "no victory" }
                ),
            )
            .with_roll(RollRecord {
                purpose: format!("victory roll of {who}"),
                dice: vec![roll],
                modifiers: vec![],
                total: roll as i32,
                cell: Some(format!("victory table, losses {lo}-{hi}: {need}-10 wins")),
                result: if won { "victory".into() } else { "-".into() },
            })
        });
        Some(VictoryRoll {
            roller,
            roll,
            losses,
            won,
        })
    }

    /// A successful victory roll: the roller wins; with 16.5 his opponent first chooses to
    /// concede or to pay to fight on (Crusades II 16.5), unless he has no units left.
    pub fn claim_victory(&mut self, w: VictoryRoll, log: &mut Log) {
        let loser = self.battle.enemy(w.roller);
        let who = self.battle.seats[w.roller.index()].clone();
        if self.options.optional_victory && self.has_units(loser) {
            self.phase = Phase::Concession(loser);
            let other = self.battle.seats[loser.index()].clone();
            log.push_with(|| {
                Event::public(
                    "Crusades II 16.5",
                    format!("{other} may concede, or fight on at a price"),
                )
            });
            return;
        }
        self.finish(
            Some(w.roller),
            None,
            format!(
                "{who} rolled {} with enemy losses of {} (11.0)",
                w.roll, w.losses
            ),
        );
    }

    /// Ends the game.
    pub fn finish(&mut self, winner: Option<Seat>, level: Option<String>, reason: String) {
        self.phase = Phase::Over;
        self.tasks.clear();
        self.outcome = Some(Outcome {
            winner,
            level,
            reason,
        });
    }

    /// The result when the last turn ends with no victory roll won.
    pub fn end_of_game(&mut self, log: &mut Log) {
        let (winner, reason) = match self.battle.at_end.clone() {
            AtEnd::Winner(s) => (
                Some(s),
                format!(
                    "no victory roll succeeded: {} ({})",
                    self.battle.seats[s.index()],
                    self.battle.case
                ),
            ),
            AtEnd::Draw => (
                None,
                format!("no victory roll succeeded: a draw ({})", self.battle.case),
            ),
            AtEnd::NicopolisRoadBlock => {
                let turk = Seat(1);
                if self.road_blocked(turk) {
                    (
                        Some(turk),
                        "Turkish units block the Crusaders' roads (14.1)".to_string(),
                    )
                } else {
                    (
                        Some(Seat(0)),
                        "the Crusaders' road lies open (14.1)".to_string(),
                    )
                }
            }
        };
        let level = self
            .battle
            .at_end_level
            .clone()
            .filter(|_| winner.is_some());
        let text = reason.clone();
        log.push_with(|| Event::public("Crusades II 11.0", text));
        self.finish(winner, level, reason);
    }

    /// 14.1: whether non-routed, in-command units of `blocker` on road hexes cut every road
    /// path from the Crusaders' start to both the road's town and the north edge.
    /// Reading: the Crusaders win if either destination can still be reached by road.
    pub fn road_blocked(&self, blocker: Seat) -> bool {
        let map = &self.battle.map;
        let status = self.command_status(blocker);
        let blocked = |h: hexgrid::Hex| {
            status
                .iter()
                .any(|&(u, ok)| ok && !self.unit(u).routed && self.hex(u) == Some(h))
        };
        let area = |n: &str| map.areas.get(n).cloned().unwrap_or_default();
        let goals: Vec<_> = area("road_goal_town")
            .into_iter()
            .chain(area("north_edge"))
            .collect();
        let mut seen: Vec<hexgrid::Hex> = Vec::new();
        let mut queue: VecDeque<hexgrid::Hex> = area("crusader_road_start")
            .into_iter()
            .filter(|&h| !blocked(h))
            .collect();
        while let Some(h) = queue.pop_front() {
            if seen.contains(&h) {
                continue;
            }
            seen.push(h);
            if goals.contains(&h) {
                return false;
            }
            for d in Direction::ALL {
                let n = h.neighbour(d);
                if map.road(h, d).is_some() && !blocked(n) && !seen.contains(&n) {
                    queue.push_back(n);
                }
            }
        }
        true
    }
}
