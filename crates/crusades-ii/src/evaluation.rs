//! The evaluation a search reads at the leaves of its tree ([`engine::Game::evaluate`]): how
//! the battle stands, as the chance that the first seat wins.
//!
//! Two layers. The **reckoning** ([`State::reckoning`]) works the chance out from the rules:
//! the victory rolls of 11.0 at the losses suffered and a share of those the melees in
//! prospect would cost, over the turns left, then the scenario's end. Measured against games
//! the doctrine plays on both sides, it foretold the result worse than the bare base rate
//! (at Hattin the Crusaders win three games in four by the victory rolls, while the
//! reckoning, seeing no losses yet, reads the Muslims' win at the end of the last turn). So
//! the evaluation is a logistic model fitted to such games: the reckoning (as a log-odds)
//! is one of its [`Features`], the losses, the melees in prospect and the turns gone the
//! others, with one weight each per battle ([`Weights`], in
//! `data/crusades-ii/BATTLE/evaluation.toml`, written by the `fit_evaluation` example).
//! Without that file the weights read the reckoning alone.
//!
//! The weights are the AI's judgement, fitted, not values of the rules: a player who types
//! in the printed game's counters should fit them again.

use engine::{DataErrors, DataSet, Seat};
use serde::Deserialize;

use crate::scenario;
use crate::state::State;

/// The share of the melees in prospect that the reckoning counts as losses already: the
/// enemy moves and fires before some of them are fought, and an attacker may think better
/// of others. A weight of the AI's judgement, not of the rules.
pub const FORESEEN_MELEE: f64 = 0.5;

/// Loss points (11.0) counted per step the doctrine's melee reckoning expects: a step of a
/// two-step counter costs two or three points, a rout its whole strength, a step of heavy
/// cavalry one. A weight of the AI's judgement, not of the rules.
pub const LOSS_POINTS_PER_STEP: f64 = 3.0;

/// The loss points that count as one unit of a margin feature: the width of a victory
/// table's bands is some ten to twenty points, and a side's army some two hundred.
pub const LOSS_SCALE: f64 = 40.0;

/// The furthest the reckoning's log-odds is read from even (a chance of about 1 in 400):
/// beyond it the reckoning is certain, and a weight on it would swamp the other features.
pub const MOST_LOG_ODDS: f64 = 6.0;

/// What the evaluation reads of a position, from the first seat's side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Features {
    /// The log-odds of the reckoning ([`State::reckoning`]) for the first seat, within
    /// ±[`MOST_LOG_ODDS`].
    pub reckoning: f64,
    /// The second seat's loss points less the first's (11.0), over [`LOSS_SCALE`].
    pub loss_margin: f64,
    /// What the melees the first seat could fight from where it stands are worth to it, less
    /// the second seat's ([`crate::doctrine::melee_threat`]), in loss points over
    /// [`LOSS_SCALE`].
    pub melee_margin: f64,
    /// The share of the battle's turns gone.
    pub turns_gone: f64,
    /// The loss margin times the turns gone: losses weigh more as the end nears.
    pub late_margin: f64,
}

impl Features {
    /// The features from a list in the order of [`Features::as_list`].
    pub fn from_list(x: [f64; 5]) -> Self {
        Features {
            reckoning: x[0],
            loss_margin: x[1],
            melee_margin: x[2],
            turns_gone: x[3],
            late_margin: x[4],
        }
    }

    /// The features as a list, in the order of [`Weights::as_list`]'s weights after the bias.
    pub fn as_list(&self) -> [f64; 5] {
        [
            self.reckoning,
            self.loss_margin,
            self.melee_margin,
            self.turns_gone,
            self.late_margin,
        ]
    }
}

/// A battle's evaluation weights: the first seat's log-odds of winning is `bias` plus each
/// feature ([`Features`]) times its weight.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weights {
    /// Where the weights come from (how they were fitted, on what games).
    pub source: String,
    /// The log-odds when every feature is 0.
    pub bias: f64,
    /// The weight of [`Features::reckoning`].
    pub reckoning: f64,
    /// The weight of [`Features::loss_margin`].
    pub loss_margin: f64,
    /// The weight of [`Features::melee_margin`].
    pub melee_margin: f64,
    /// The weight of [`Features::turns_gone`].
    pub turns_gone: f64,
    /// The weight of [`Features::late_margin`].
    pub late_margin: f64,
}

impl Default for Weights {
    /// The reckoning alone.
    fn default() -> Self {
        Weights {
            source: "none: the reckoning alone".into(),
            bias: 0.0,
            reckoning: 1.0,
            loss_margin: 0.0,
            melee_margin: 0.0,
            turns_gone: 0.0,
            late_margin: 0.0,
        }
    }
}

impl Weights {
    /// The bias, then the weights in the order of [`Features::as_list`].
    pub fn as_list(&self) -> [f64; 6] {
        [
            self.bias,
            self.reckoning,
            self.loss_margin,
            self.melee_margin,
            self.turns_gone,
            self.late_margin,
        ]
    }

    /// Weights from the bias and the list of [`Features::as_list`], with their `source`.
    pub fn from_list(source: String, w: [f64; 6]) -> Self {
        Weights {
            source,
            bias: w[0],
            reckoning: w[1],
            loss_margin: w[2],
            melee_margin: w[3],
            turns_gone: w[4],
            late_margin: w[5],
        }
    }

    /// The first seat's chance of winning with these features.
    pub fn chance(&self, f: &Features) -> f64 {
        let w = self.as_list();
        let z = w[0]
            + w[1..]
                .iter()
                .zip(f.as_list())
                .map(|(w, x)| w * x)
                .sum::<f64>();
        1.0 / (1.0 + (-z).exp())
    }

    /// The weights as `evaluation.toml` holds them, under a comment saying what they are.
    pub fn to_toml(&self) -> String {
        let mut out = String::from(
            "# The Crusades II evaluation's weights for this battle (crates/crusades-ii/src/evaluation.rs):\n\
             # the AI's judgement, fitted to games, not values of the rules. The first seat's log-odds of\n\
             # winning is bias + the sum of each feature times its weight.\n",
        );
        out.push_str(&format!("source = {:?}\n", self.source));
        for (name, w) in [
            ("bias", self.bias),
            ("reckoning", self.reckoning),
            ("loss_margin", self.loss_margin),
            ("melee_margin", self.melee_margin),
            ("turns_gone", self.turns_gone),
            ("late_margin", self.late_margin),
        ] {
            out.push_str(&format!("{name} = {w:.4}\n"));
        }
        out
    }
}

/// The path of a battle's evaluation weights in the data.
pub fn weights_path(battle: &str) -> String {
    format!("crusades-ii/{battle}/evaluation.toml")
}

/// Reads a battle's evaluation weights: the file's, or [`Weights::default`] without one.
/// Every weight must be a finite number.
pub fn load_weights(data: &DataSet, battle: &str) -> Result<Weights, DataErrors> {
    let path = weights_path(battle);
    if data.text(&path).is_err() {
        return Ok(Weights::default());
    }
    let mut errors = DataErrors::default();
    let weights: Weights = data.parse(&path).map_err(|e| DataErrors(vec![e]))?;
    for (i, w) in weights.as_list().iter().enumerate() {
        if !w.is_finite() {
            let name = [
                "bias",
                "reckoning",
                "loss_margin",
                "melee_margin",
                "turns_gone",
                "late_margin",
            ][i];
            errors.push(&path, None, format!("`{name}` must be a finite number"));
        }
    }
    errors.locate(data);
    errors.into_result(weights)
}

impl State {
    /// What the evaluation reads of this position ([`Features`]).
    pub fn features(&self) -> Features {
        let (first, second) = (Seat(0), Seat(1));
        let threat = [
            crate::doctrine::melee_threat(self, first),
            crate::doctrine::melee_threat(self, second),
        ];
        let losses = self.losses_by_side();
        let chance = self
            .reckoning_with(first, threat, losses)
            .clamp(1e-9, 1.0 - 1e-9);
        let loss_margin =
            (f64::from(losses[second.index()]) - f64::from(losses[first.index()])) / LOSS_SCALE;
        let turns_gone = (self.turn as f64 / self.battle.turns.len().max(1) as f64).min(1.0);
        Features {
            reckoning: (chance / (1.0 - chance))
                .ln()
                .clamp(-MOST_LOG_ODDS, MOST_LOG_ODDS),
            loss_margin,
            melee_margin: (threat[0] - threat[1]) * LOSS_POINTS_PER_STEP / LOSS_SCALE,
            turns_gone,
            late_margin: loss_margin * turns_gone,
        }
    }

    /// The battle's evaluation for `seat` ([`Weights::chance`] of [`State::features`]); a
    /// finished game is 1, 0.5 or 0.
    pub fn evaluation(&self, seat: Seat) -> f64 {
        if let Some(o) = &self.outcome {
            return o.score(seat);
        }
        let first = self.battle.evaluation.chance(&self.features());
        if seat == Seat(0) {
            first
        } else {
            1.0 - first
        }
    }

    /// 11.0: the chance that `seat` wins, worked out from the rules: each Rally Phase from
    /// turn 5 (or once the losses reach the table) each side rolls a die against its victory
    /// table read at the enemy's losses, so with the losses as they are each side has a chance
    /// a turn of winning, over the turns left; if neither roll succeeds the scenario's end
    /// decides (a draw, a side, or Nicopolis's road block, 14.1, as it stands now), shaded by
    /// the margin of losses (rout counts whole strength, 11.0, so morale is in it: forty loss
    /// points are most of the way to a win).
    ///
    /// The losses counted are those suffered so far and [`FORESEEN_MELEE`] of those the
    /// melees either side could fight from where its counters stand would cost (`threat`:
    /// [`crate::doctrine::melee_threat`] of each seat, by seat index), so that a search sees a
    /// flank exposed or a melee set up before the dice fall; between whole loss points the
    /// victory tables are read in proportion. Reads the counters' places and the chits of the
    /// state it is given (a re-sampled one in a search).
    pub fn reckoning(&self, seat: Seat, threat: [f64; 2]) -> f64 {
        self.reckoning_with(seat, threat, self.losses_by_side())
    }

    /// [`State::reckoning`] with the losses so far given ([`State::losses_by_side`]).
    fn reckoning_with(&self, seat: Seat, threat: [f64; 2], losses: [u32; 2]) -> f64 {
        let enemy = self.battle.enemy(seat);
        let foreseen = |side: Seat| FORESEEN_MELEE * threat[side.index()] * LOSS_POINTS_PER_STEP;
        let mine = f64::from(losses[seat.index()]) + foreseen(enemy);
        let theirs = f64::from(losses[enemy.index()]) + foreseen(seat);
        // 11.0: the chance that `roller` wins his victory roll with the enemy's losses so,
        // read in proportion between whole loss points.
        let read = |roller: Seat, losses: u32| -> f64 {
            self.battle.victory[roller.index()]
                .iter()
                .find(|(lo, hi, _)| (*lo..=*hi).contains(&losses))
                .map_or(0.0, |&(_, _, need)| {
                    f64::from(11u8.saturating_sub(need.clamp(1, 11))) / 10.0
                })
        };
        let chance = |roller: Seat, losses: f64| -> f64 {
            let whole = losses.floor();
            let part = losses - whole;
            let at = whole as u32;
            (1.0 - part) * read(roller, at) + part * read(roller, at + 1)
        };
        let (p, q) = (chance(seat, theirs), chance(enemy, mine));
        let turns_left = self.battle.turns.len().saturating_sub(self.turn).max(1) as i32;
        let neither = (1.0 - p) * (1.0 - q);
        let rolls = if neither < 1.0 {
            (1.0 - neither.powi(turns_left)) / (1.0 - neither)
        } else {
            f64::from(turns_left)
        };
        let win_by_roll = p * rolls;
        let undecided = neither.powi(turns_left);
        let at_end = match &self.battle.at_end {
            scenario::AtEnd::Draw => 0.5,
            scenario::AtEnd::Winner(w) => {
                if *w == seat {
                    1.0
                } else {
                    0.0
                }
            }
            scenario::AtEnd::NicopolisRoadBlock => {
                let turk = Seat(1);
                if self.road_blocked(turk) == (seat == turk) {
                    1.0
                } else {
                    0.0
                }
            }
        };
        let margin = 0.5 + 0.5 * ((theirs - mine) / LOSS_SCALE).tanh();
        (win_by_roll + undecided * (0.5 * at_end + 0.5 * margin)).clamp(0.0, 1.0)
    }
}
