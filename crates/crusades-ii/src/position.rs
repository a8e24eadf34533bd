//! Positions as data, like a chess FEN: a TOML file giving the turn, phase, side to move and
//! every counter's state, checked as strictly as scenario data. Players use it for what-if
//! set-ups and puzzles; tests use it to reach any situation in a few lines. The format is in
//! `docs/crusades-ii/position.md`.

use engine::{DataError, DataErrors};
use hexgrid::{HexId, Vertex};
use serde::Deserialize;

use crate::scenario::Chit;
use crate::state::{CrossState, Fury, Loc, Phase, State};

/// A position file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionFile {
    /// The turn label (`0800`).
    turn: String,
    /// `orders`, `movement`, `defensive-fire`, `offensive-fire` or `melee`.
    phase: String,
    /// The phasing seat.
    active: String,
    /// The unit carrying the Holy Cross, or `captured`.
    #[serde(default)]
    holy_cross: Option<String>,
    /// Combat units; those not listed keep their scenario state (waiting).
    #[serde(default)]
    unit: Vec<UnitPos>,
    /// Leaders; those not listed keep their scenario state.
    #[serde(default)]
    leader: Vec<LeaderPos>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitPos {
    name: String,
    #[serde(default)]
    hex: Option<String>,
    #[serde(default)]
    facing: Option<String>,
    #[serde(default)]
    eliminated: bool,
    #[serde(default)]
    steps: u8,
    #[serde(default)]
    routed: bool,
    #[serde(default)]
    charging: bool,
    #[serde(default)]
    out_of_command: bool,
    #[serde(default)]
    fury: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LeaderPos {
    name: String,
    #[serde(default)]
    hex: Option<String>,
    #[serde(default)]
    chit: Option<String>,
    #[serde(default)]
    replaced: bool,
    #[serde(default)]
    eliminated: bool,
}

const FILE: &str = "(position)";

impl State {
    /// Replaces the scenario's set-up with the position written in `text`, reporting every
    /// problem at once.
    pub fn load_position(&mut self, text: &str) -> Result<(), DataErrors> {
        let p: PositionFile = toml::from_str(text).map_err(|e| DataError {
            file: FILE.into(),
            line: e.span().map(|s| engine::data::line_of(text, s.start)),
            message: e.message().trim().to_string(),
        })?;
        let mut errors = DataErrors::default();
        let b = self.battle.clone();
        let mut err = |m: String| errors.push(FILE, None, m);
        match b.turns.iter().position(|t| t.label == p.turn) {
            Some(i) => self.turn = i,
            None => err(format!(
                "turn `{}`; valid: {}",
                p.turn,
                b.turns
                    .iter()
                    .map(|t| t.label.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
        match b.seat(&p.active) {
            Some(s) => self.active = s,
            None => err(format!(
                "active `{}`; valid: {}",
                p.active,
                b.seats.join(", ")
            )),
        }
        self.phase = match p.phase.as_str() {
            "orders" => Phase::Orders,
            "movement" => Phase::Movement,
            "defensive-fire" => Phase::DefensiveFire,
            "offensive-fire" => Phase::OffensiveFire,
            "melee" => Phase::Melee,
            // 16.1 II: the start of the Action Phase, the chits in the cup.
            "action" if self.options.advanced_sequence => Phase::Draw,
            "action" => {
                err("phase `action` is the Action Phase of the advanced sequence of play (16.1): start with the `advanced-sequence` option".into());
                Phase::Orders
            }
            other => {
                err(format!("phase `{other}`; valid: orders, movement, defensive-fire, offensive-fire, melee, action"));
                Phase::Orders
            }
        };
        let hex = |t: &str, err: &mut dyn FnMut(String)| -> Option<hexgrid::Hex> {
            match t.parse::<HexId>() {
                Ok(id) => b.map.hex(id).or_else(|| {
                    err(format!("hex {id} is not on the map of {}", b.title));
                    None
                }),
                Err(e) => {
                    err(format!("`{t}`: {e}"));
                    None
                }
            }
        };
        for u in &p.unit {
            let Some(id) = b.unit_by_name(&u.name) else {
                err(format!("no combat unit is named `{}`", u.name));
                continue;
            };
            let total = self.total_steps(id);
            let st = &mut self.units[id as usize];
            if u.eliminated {
                st.loc = Loc::Eliminated;
                continue;
            }
            match u.hex.as_deref() {
                Some(h) => {
                    if let Some(h) = hex(h, &mut err) {
                        st.loc = Loc::Map(h);
                    }
                }
                None => err(format!(
                    "unit {}: give `hex` or `eliminated = true`",
                    u.name
                )),
            }
            if let Some(f) = &u.facing {
                match f.parse::<Vertex>() {
                    Ok(v) => st.facing = v,
                    Err(_) => err(format!(
                        "unit {}: facing `{f}`; valid: NNE, E, SSE, SSW, W, NNW",
                        u.name
                    )),
                }
            }
            if u.steps >= total {
                err(format!(
                    "unit {}: {} steps lost, but it has only {total} (9.42, 9.43)",
                    u.name, u.steps
                ));
            }
            st.steps = u.steps;
            st.routed = u.routed;
            st.out_of_command = u.out_of_command;
            st.fury = match u.fury.as_deref() {
                None => Fury::Calm,
                Some("berserk") => Fury::Berserk,
                Some("exhausted") => Fury::Exhausted,
                Some(other) => {
                    err(format!(
                        "unit {}: fury `{other}`; valid: berserk, exhausted",
                        u.name
                    ));
                    Fury::Calm
                }
            };
            if u.charging && !b.utype(id).crusader_heavy_cavalry {
                err(format!(
                    "unit {}: only Crusader heavy cavalry charges (5.6)",
                    u.name
                ));
            }
            st.charging = u.charging;
        }
        for l in &p.leader {
            let Some(id) = b.leader_by_name(&l.name) else {
                err(format!("no leader is named `{}`", l.name));
                continue;
            };
            let st = &mut self.leaders[id as usize];
            st.replaced = l.replaced;
            if l.eliminated {
                st.loc = Loc::Eliminated;
            } else if let Some(h) = l.hex.as_deref().and_then(|h| hex(h, &mut err)) {
                st.loc = Loc::Map(h);
            }
            if let Some(c) = &l.chit {
                match Chit::parse(c) {
                    Some(c) => st.chit = Some(c),
                    None => err(format!("leader {}: chit `{c}`; valid: attack, advance, stand, retreat, reserve, muster", l.name)),
                }
            }
        }
        match p.holy_cross.as_deref() {
            None => {}
            Some("captured") => {
                self.holy_cross_state = CrossState::Captured;
                self.holy_cross = None;
            }
            Some(name) => match b.unit_by_name(name) {
                Some(u) if b.special.holy_cross => {
                    self.holy_cross_state = CrossState::Carried;
                    self.holy_cross = Some(u);
                }
                _ => err(format!("holy_cross `{name}`: not a unit of this scenario, or the scenario has no Holy Cross")),
            },
        }
        // 7.0: one combat unit per hex, but for pairs that began stacked.
        let mut seen: Vec<(hexgrid::Hex, crate::scenario::UnitId)> = Vec::new();
        for u in self.unit_ids() {
            if let Some(h) = self.hex(u) {
                if let Some(&(_, other)) = seen.iter().find(|(x, _)| *x == h) {
                    let pair = b.units[u as usize].stacked_over == Some(other)
                        || b.units[other as usize].stacked_over == Some(u);
                    if !pair || self.side(u) != self.side(other) {
                        errors.push(FILE, None, format!(
                            "{} and {} share hex {}: only units that began the game stacked may (7.0, 7.1)",
                            self.name(other), self.name(u), b.map.id(h)
                        ));
                    }
                }
                seen.push((h, u));
            }
        }
        if self.phase == Phase::Orders {
            self.orders_done = [false, false];
        } else {
            self.orders_done = [true, true];
            for l in self.leader_ids().collect::<Vec<_>>() {
                if self.leaders[l as usize].chit.is_none()
                    && self
                        .chit_leaders(self.battle.leaders[l as usize].side)
                        .contains(&l)
                {
                    errors.push(
                        FILE,
                        None,
                        format!(
                            "leader {} needs a `chit` after the Order Phase (5.0)",
                            self.battle.leaders[l as usize].name
                        ),
                    );
                }
            }
        }
        if self.phase == Phase::Draw && errors.0.is_empty() {
            self.start_action_phase(&mut engine::Log::discarding());
        }
        errors.into_result(())
    }
}
