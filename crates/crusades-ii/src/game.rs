//! Crusades II behind the engine's [`engine::Game`] and [`engine::Startable`] traits.

use engine::{
    Applied, Board, DataErrors, DataSet, Dice, Facts, Log, Outcome, Pending, Rejection,
    ScenarioInfo, Seat, Setup, Startable, Viewer,
};

use crate::action::Action;
use crate::options::{catalogue, Options};
use crate::scenario::LeaderId;
use crate::scenario::{self, BATTLES};
use crate::state::{Loc, State};
use crate::view::View;

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
        s.selected_moves = std::sync::OnceLock::new();
        let other = self.battle.enemy(seat);
        // One pass over the units for every leader: his units still in play
        // ([`State::chit_leaders`]) and those routed or destroyed ([`State::muster_allowed`]).
        let mut units = vec![(0u32, 0u32); self.leaders.len()];
        for (d, u) in self.battle.units.iter().zip(&self.units) {
            if let Some((in_play, broken)) = units.get_mut(d.leader as usize) {
                *in_play += u32::from(u.loc != Loc::Eliminated);
                *broken += u32::from(u.routed || u.loc == Loc::Eliminated);
            }
        }
        for (l, &(in_play, broken)) in units.iter().enumerate() {
            let l = l as LeaderId;
            if self.battle.leaders[l as usize].side != other
                || self.leaders[l as usize].loc == Loc::Eliminated
                || in_play == 0
            {
                continue;
            }
            let allowed = self.chits_allowed(l, broken >= 2);
            let n = allowed.clone().count() as u64;
            let draw = rng.next_u64();
            // The chits he held earlier this Order Phase are as secret as his chit.
            s.leaders[l as usize].chits_held = 0;
            if n > 0 {
                s.leaders[l as usize].chit = allowed.clone().nth((draw % n) as usize);
            }
        }
        s
    }

    /// [`State::play`] refuses an action before it changes anything: whose decision it is,
    /// then the action among those listed for the phase (orders, set-up, or any other).
    const REFUSES_UNCHANGED: bool = true;

    const REUSES_WORK: bool = true;

    /// The selected counter's moves, the dearest part of checking a move, taken over from the
    /// state a search first reached the decision in ([`State::reuse_selected_moves`]).
    fn reuse_work(&mut self, earlier: &Self) {
        self.reuse_selected_moves(earlier);
    }

    /// How the battle stands for `seat`, for searches cut short: the chance of winning by
    /// the battle's fitted evaluation ([`crate::evaluation`]); a finished game is 1, 0.5 or 0.
    fn evaluate(&self, seat: Seat) -> f64 {
        self.evaluation(seat)
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
