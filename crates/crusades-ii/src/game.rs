//! Crusades II behind the engine's [`engine::Game`] and [`engine::Startable`] traits.

use engine::{
    Applied, Board, DataErrors, DataSet, Dice, Facts, Log, Outcome, Pending, Rejection,
    ScenarioInfo, Seat, Setup, Startable, Viewer,
};

use crate::action::Action;
use crate::options::{catalogue, Options};
use crate::scenario::{self, BATTLES};
use crate::state::State;
use crate::view::View;

/// The share of the melees in prospect that the evaluation counts as losses already: the
/// enemy moves and fires before some of them are fought, and an attacker may think better
/// of others. A weight of the AI's judgement, not of the rules.
pub const FORESEEN_MELEE: f64 = 0.5;

/// Loss points (11.0) counted per step the doctrine's melee reckoning expects: a step of a
/// two-step counter costs two or three points, a rout its whole strength, a step of heavy
/// cavalry one. A weight of the AI's judgement, not of the rules.
pub const LOSS_POINTS_PER_STEP: f64 = 3.0;

impl engine::Game for State {
    type Action = Action;
    type View = View;

    fn facts(&self) -> Facts {
        Facts {
            game: "crusades-ii".into(),
            seats: self.battle.seats.clone(),
            simultaneous_orders: true,
            hidden_information: true,
            chance: true,
        }
    }

    fn action_text(&self, action: &Action) -> String {
        action.text(&self.battle)
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        Action::parse(&self.battle, text)
    }

    fn pending(&self) -> Pending {
        Pending::from_seats(self.pending_seats())
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        self.legal(seat)
    }

    fn apply(&mut self, seat: Seat, action: &Action, log: &mut Log) -> Result<Applied, Rejection> {
        self.play(seat, action, log)
    }

    fn describe_action(&self, _seat: Seat, action: &Action) -> engine::ActionInfo {
        self.describe(action)
    }

    fn view(&self, viewer: Viewer) -> View {
        self.seat_view(viewer)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn dice(&self) -> &Dice {
        &self.dice
    }

    fn dice_mut(&mut self) -> &mut Dice {
        &mut self.dice
    }

    fn board(&self, viewer: Viewer) -> Board {
        self.board_picture(viewer)
    }

    /// 5.0: the other side's command chits are its only secret (the cup's order lives in the
    /// dice, which searches re-seed). Each of its leaders is given a chit drawn from those he
    /// could hold now, one draw per leader whether or not he has placed one, so that the
    /// draws reveal nothing.
    fn determinize(&self, seat: Seat, rng: &mut dyn rand_core::RngCore) -> Self {
        let mut s = self.clone();
        // The selected counter's moves follow from its leader's chit: worked out afresh.
        s.selected_moves = None;
        let other = self.battle.enemy(seat);
        for l in self.chit_leaders(other) {
            let allowed = self.allowed_chits(l);
            let draw = rng.next_u64();
            // The chits he held earlier this Order Phase are as secret as his chit.
            s.leaders[l as usize].chits_held = 0;
            if !allowed.is_empty() {
                s.leaders[l as usize].chit = Some(allowed[(draw % allowed.len() as u64) as usize]);
            }
        }
        s
    }

    /// How the battle stands for `seat`, for searches cut short (11.0), as the chance of
    /// winning: each Rally Phase from turn 5 (or once the losses reach the table) each side
    /// rolls a die against its victory table read at the enemy's losses, so with the losses as
    /// they are each side has a chance a turn of winning, over the turns left; if neither
    /// roll succeeds the scenario's end decides (a draw, a side, or Nicopolis's road block,
    /// 14.1, as it stands now), shaded by the margin of losses (rout counts whole strength,
    /// 11.0, so morale is in it: forty loss points are most of the way to a win).
    ///
    /// The losses counted are those suffered so far and a share of those the melees either
    /// side could fight from where its counters stand would cost
    /// ([`crate::doctrine::melee_threat`], [`FORESEEN_MELEE`]), so that a search sees a flank
    /// exposed or a melee set up before the dice fall; between whole loss points the victory
    /// tables are read in proportion. Reads the counters' places and the chits of the state
    /// it is given (a re-sampled one in a search). A finished game is 1, 0.5 or 0.
    fn evaluate(&self, seat: Seat) -> f64 {
        if let Some(o) = &self.outcome {
            return o.score(seat);
        }
        let enemy = self.battle.enemy(seat);
        let foreseen = |side: Seat| {
            FORESEEN_MELEE * crate::doctrine::melee_threat(self, side) * LOSS_POINTS_PER_STEP
        };
        let mine = f64::from(self.losses(seat)) + foreseen(enemy);
        let theirs = f64::from(self.losses(enemy)) + foreseen(seat);
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
        let margin = 0.5 + 0.5 * ((theirs - mine) / 40.0).tanh();
        (win_by_roll + undecided * (0.5 * at_end + 0.5 * margin)).clamp(0.0, 1.0)
    }

    /// Losses per side (11.0) and the turn reached.
    fn stats(&self) -> Vec<engine::Stat> {
        let mut out: Vec<engine::Stat> = [Seat(0), Seat(1)]
            .into_iter()
            .map(|s| engine::Stat::seat("losses", s, self.losses(s) as f64))
            .collect();
        out.push(engine::Stat::game("turns", (self.turn + 1) as f64));
        out
    }
}

impl Startable for State {
    fn scenarios(data: &DataSet) -> Result<Vec<ScenarioInfo>, DataErrors> {
        let mut out = Vec::new();
        let mut errors = DataErrors::default();
        for id in BATTLES {
            match scenario::shared(data, id) {
                Ok(b) => out.push(ScenarioInfo {
                    id: b.id.clone(),
                    title: b.title.clone(),
                    seats: b.seats.clone(),
                    options: catalogue(),
                }),
                Err(e) => errors.0.extend(e.0),
            }
        }
        errors.into_result(out)
    }

    fn start(setup: &Setup, data: &DataSet) -> Result<Self, DataErrors> {
        setup.check_scenario("crusades-ii", &BATTLES)?;
        let options = Options::parse(&setup.options).map_err(DataErrors::command_line)?;
        let battle = scenario::shared(data, &setup.scenario)?;
        let mut state = State::new(battle, options, Dice::new(setup.seed, setup.dice));
        if let Some(text) = &setup.position {
            state.load_position(text)?;
        }
        state.progress(&mut Log::discarding());
        Ok(state)
    }
}

/// Every value of Crusades II's data with its provenance, for `crusades data audit`.
pub fn audit(data: &DataSet) -> Result<Vec<engine::AuditEntry>, DataErrors> {
    let mut out = Vec::new();
    let mut errors = DataErrors::default();
    for (i, id) in BATTLES.iter().enumerate() {
        match scenario::load(data, id) {
            Ok(b) => out.extend(
                b.audit
                    .iter()
                    .filter(|e| i == 0 || !e.file.ends_with("tables.toml"))
                    .cloned(),
            ),
            Err(e) => errors.0.extend(e.0),
        }
    }
    errors.into_result(out)
}
