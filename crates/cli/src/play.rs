//! `crusades play`: a game for humans at one keyboard (hot-seat), read from stdin one line at
//! a time so that it can be scripted.
//!
//! Each prompt shows the deciding seat's status, its recent visible events and its numbered
//! legal actions; a number or a typed notation takes an action, and `help`, `view`, `log`,
//! `actions`, `undo`, `save FILE` and `quit` do what they say. In a game with hidden
//! information and more than one seat at the keyboard, every change of the seat being asked
//! goes through a "hand over to SEAT, press Enter" screen that clears the terminal, so that
//! one seat's secrets (simultaneous orders above all) are off the screen before the next
//! seat sits down.
//!
//! Seats not played at the keyboard are played by AI players (`--ai SEAT=PLAYER`, random
//! for a seat not named). When an AI seat and a human seat must decide at once, the AI
//! decides first, so that it cannot have seen the human's secret orders whatever the game.

use std::io::{self, BufRead};
use std::path::PathBuf;

use ai::PlayerSpec;
use engine::{Pending, Seat, Viewer};
use registry::AnyGame;

use crate::commands::{self, Context};
use crate::error::CliError;
use crate::text;

/// Clears the terminal and moves the cursor home.
const CLEAR: &str = "\x1b[2J\x1b[H";
/// The most events shown at a prompt.
const RECENT: usize = 15;
/// The most actions listed at a prompt (`actions` lists them all).
const PROMPT_ACTIONS: usize = 40;

/// The arguments of `crusades play`.
pub struct PlayArgs {
    /// The full scenario id.
    pub scenario: String,
    /// The seats played at the keyboard (when empty, every seat without an AI player).
    pub seats: Vec<String>,
    /// `SEAT=PLAYER` arguments: the AI players of seats not at the keyboard.
    pub ai: Vec<String>,
    /// The seed of the dice, if given.
    pub seed: Option<u64>,
    /// Options in use.
    pub options: Vec<String>,
    /// Where to save after every action.
    pub save: Option<PathBuf>,
    /// Whether to overwrite `save`.
    pub force: bool,
}

/// A session at the keyboard.
struct Table {
    game: Box<dyn AnyGame>,
    humans: Vec<Seat>,
    /// Per seat, its AI player (`None` for a seat at the keyboard).
    players: Vec<Option<PlayerSpec>>,
    save: Option<PathBuf>,
    /// Per seat, how many of its visible events it has been shown.
    seen: Vec<usize>,
    /// How many events a spectator has been shown (when no seat is at the keyboard).
    spectator_seen: usize,
    /// The seat asked last, to know when to hand over.
    last_asked: Option<Seat>,
    /// The generator of the AI players' seeds (xorshift64*).
    rng: u64,
    /// Per seat, the actions its AI player has taken since this was last reported.
    ai_played: Vec<usize>,
}

/// What a line of input led to.
enum Next {
    /// The game changed (an action or an undo): look again at who must decide.
    Changed,
    /// Ask the same seat again.
    Again,
    /// Leave the game.
    Leave,
}

/// `crusades play`.
pub fn play(ctx: &Context, args: PlayArgs) -> Result<(), CliError> {
    if let Some(path) = &args.save {
        if path.exists() && !args.force {
            return Err(CliError::bad(format!(
                "{} exists: choose another file or add --force to overwrite it",
                path.display()
            )));
        }
    }
    let data = ctx.data()?;
    let seed = args.seed.unwrap_or_else(commands::fresh_seed);
    let game = registry::new_game(
        &args.scenario,
        &args.options,
        seed,
        engine::DiceMode::Seeded,
        None,
        &data,
    )?;
    let seats = game.seat_names().len();
    let mut ai: Vec<Option<PlayerSpec>> = vec![None; seats];
    for (name, spec) in crate::simulate::seat_players(&args.ai)? {
        let seat = commands::seat(game.as_ref(), &name)?;
        registry::check_player(game.as_ref(), &spec)?;
        if ai[seat.index()].replace(spec).is_some() {
            return Err(CliError::bad(format!(
                "seat {} is given two players: give each seat at most one",
                game.seat_name(seat)
            )));
        }
    }
    let humans: Vec<Seat> = if args.seats.is_empty() {
        (0..seats)
            .map(|i| Seat(i as u8))
            .filter(|s| ai[s.index()].is_none())
            .collect()
    } else {
        args.seats
            .iter()
            .map(|n| commands::seat(game.as_ref(), n))
            .collect::<Result<Vec<_>, _>>()?
    };
    if let Some(both) = humans.iter().find(|s| ai[s.index()].is_some()) {
        return Err(CliError::bad(format!(
            "{} is given both --seat and --ai: a seat is played at the keyboard or by an AI",
            game.seat_name(*both)
        )));
    }
    let players = (0..seats)
        .map(|i| {
            let seat = Seat(i as u8);
            (!humans.contains(&seat)).then(|| ai[i].unwrap_or(PlayerSpec::Random))
        })
        .collect();
    let mut table = Table {
        game,
        humans,
        players,
        save: args.save,
        seen: vec![0; seats],
        spectator_seen: 0,
        last_asked: None,
        rng: seed ^ 0x2545_F491_4F6C_DD1D | 1,
        ai_played: vec![0; seats],
    };
    say!(
        "{}: {} (seed {seed}). Type `help` at any prompt.",
        table.game.scenario(),
        table.game.board(Viewer::Spectator).title
    );
    let stdin = io::stdin();
    let mut input = stdin.lock();
    table.run(&mut input)
}

impl Table {
    fn run(&mut self, input: &mut dyn BufRead) -> Result<(), CliError> {
        loop {
            let seats = match self.game.pending() {
                Pending::Over => {
                    self.autosave()?;
                    self.report_ai();
                    self.show_last_events();
                    say!("{}", text::pending_line(self.game.as_ref()));
                    return Ok(());
                }
                Pending::Seats(seats) if seats.is_empty() => {
                    return Err(CliError::other(
                        "the game waits for no seat and is not over (a bug in the game)",
                    ));
                }
                Pending::Seats(seats) => seats,
            };
            // AI seats first: an AI never decides after a human's secret orders at the same
            // time.
            if let Some(seat) = seats.iter().copied().find(|s| !self.humans.contains(s)) {
                self.ai_move(seat)?;
                continue;
            }
            let seat = seats[0];
            self.report_ai();
            if self.needs_handover(seat) {
                say_part!("{CLEAR}");
                say!(
                    "Hand over to {name}. {name}, press Enter when ready.",
                    name = self.game.seat_name(seat)
                );
                let mut line = String::new();
                if read_line(input, &mut line)? == 0 {
                    return self.leave("end of input");
                }
                say_part!("{CLEAR}");
            }
            self.last_asked = Some(seat);
            self.show(seat);
            loop {
                say_part!("{}> ", self.game.seat_name(seat));
                let mut line = String::new();
                if read_line(input, &mut line)? == 0 {
                    say!();
                    return self.leave("end of input");
                }
                match self.command(seat, line.trim())? {
                    Next::Changed => break,
                    Next::Again => continue,
                    Next::Leave => return self.leave("quit"),
                }
            }
        }
    }

    /// Whether the screen must be cleared before asking `seat`.
    fn needs_handover(&self, seat: Seat) -> bool {
        self.humans.len() > 1
            && self.game.facts().hidden_information
            && self.last_asked != Some(seat)
    }

    /// The prompt screen: status, recent events, numbered actions.
    fn show(&mut self, seat: Seat) {
        let game = self.game.as_ref();
        let viewer = Viewer::Seat(seat);
        let board = game.board(viewer);
        say!(
            "== {}: {}, {} to decide ==",
            game.scenario(),
            board.title,
            game.seat_name(seat)
        );
        for line in &board.status {
            say!("{line}");
        }
        let events = game.events(viewer);
        let shown = self.seen[seat.index()].min(events.len());
        let new = &events[shown..];
        if !new.is_empty() {
            let from = new.len().saturating_sub(RECENT);
            say!("Since your last turn:");
            let names = game.seat_names();
            for e in &new[from..] {
                for line in text::event_lines(&names, e) {
                    say!("  {line}");
                }
            }
        }
        self.seen[seat.index()] = events.len();
        self.list_actions(seat, PROMPT_ACTIONS);
    }

    /// The seat's legal actions, numbered, at most `most` of them.
    fn list_actions(&self, seat: Seat, most: usize) {
        let actions = self.game.legal_actions(seat);
        say!("Your actions:");
        for (i, a) in actions.iter().enumerate().take(most) {
            say!("  {:>3}. {a}", i + 1);
        }
        if actions.len() > most {
            say!(
                "  ... and {} more: `actions` lists them all; you may also type a notation.",
                actions.len() - most
            );
        }
    }

    /// Does what one line of input says.
    fn command(&mut self, seat: Seat, line: &str) -> Result<Next, CliError> {
        let (word, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(w, r)| (w, r.trim()));
        match word {
            "" => Ok(Next::Again),
            "help" | "?" => {
                say!("{HELP}");
                Ok(Next::Again)
            }
            "quit" | "exit" => Ok(Next::Leave),
            "actions" => {
                self.list_actions(seat, usize::MAX);
                Ok(Next::Again)
            }
            "view" => {
                for line in commands::view_text(self.game.as_ref(), Viewer::Seat(seat), RECENT) {
                    say!("{line}");
                }
                Ok(Next::Again)
            }
            "log" => {
                let names = self.game.seat_names();
                text::print_events(&names, &self.game.events(Viewer::Seat(seat)));
                Ok(Next::Again)
            }
            "save" if !rest.is_empty() => {
                match self.game.save(std::path::Path::new(rest)) {
                    Ok(()) => say!("Saved to {rest}."),
                    Err(e) => say!("Cannot save: {e}"),
                }
                Ok(Next::Again)
            }
            "undo" if rest.is_empty() => match self.game.undo(seat) {
                Ok(undone) => {
                    self.autosave()?;
                    say!("Took back `{}`.", undone.action);
                    self.seen[seat.index()] = self.game.events(Viewer::Seat(seat)).len();
                    self.show(seat);
                    Ok(Next::Again)
                }
                Err(e) => {
                    say!("{e}");
                    Ok(Next::Again)
                }
            },
            _ => {
                let actions = self.game.legal_actions(seat);
                let action = match line.parse::<usize>() {
                    Ok(n) if (1..=actions.len()).contains(&n) => actions[n - 1].clone(),
                    Ok(n) => {
                        say!("There is no action {n}: choose 1 to {}.", actions.len());
                        return Ok(Next::Again);
                    }
                    Err(_) => line.to_string(),
                };
                match self.game.act(seat, &action, &[]) {
                    Ok(events) => {
                        self.autosave()?;
                        let names = self.game.seat_names();
                        text::print_events(&names, &events);
                        self.seen[seat.index()] = self.game.events(Viewer::Seat(seat)).len();
                        Ok(Next::Changed)
                    }
                    Err(e) => {
                        say!("{e}");
                        Ok(Next::Again)
                    }
                }
            }
        }
    }

    /// The AI player's move for `seat`; its action and events are not shown (they may be
    /// secret): the humans see its public events at their next prompt.
    fn ai_move(&mut self, seat: Seat) -> Result<(), CliError> {
        let spec = self.players[seat.index()].unwrap_or(PlayerSpec::Random);
        let seed = self.next_random();
        registry::ai_move(self.game.as_mut(), seat, &spec, seed)?;
        self.autosave()?;
        self.ai_played[seat.index()] += 1;
        Ok(())
    }

    /// Says which AI seats have played since the last report: `(East has played.)`, or
    /// `(East has played 12 actions.)`.
    fn report_ai(&mut self) {
        for (i, n) in self.ai_played.iter_mut().enumerate() {
            let name = self.game.seat_name(Seat(i as u8));
            match *n {
                0 => {}
                1 => say!("({name} has played.)"),
                n => say!("({name} has played {n} actions.)"),
            }
            *n = 0;
        }
    }

    /// At the end: the events the seat asked last (a spectator if none was) has not seen.
    fn show_last_events(&mut self) {
        let (viewer, seen) = match self.last_asked {
            Some(s) => (Viewer::Seat(s), &mut self.seen[s.index()]),
            None => (Viewer::Spectator, &mut self.spectator_seen),
        };
        let events = self.game.events(viewer);
        let names = self.game.seat_names();
        for e in events.iter().skip(*seen) {
            for line in text::event_lines(&names, e) {
                say!("  {line}");
            }
        }
        *seen = events.len();
    }

    fn next_random(&mut self) -> u64 {
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn autosave(&self) -> Result<(), CliError> {
        match &self.save {
            Some(path) => commands::save(self.game.as_ref(), path),
            None => Ok(()),
        }
    }

    fn leave(&self, why: &str) -> Result<(), CliError> {
        self.autosave()?;
        match &self.save {
            Some(path) => say!("Leaving ({why}); the game is saved in {}.", path.display()),
            None => say!("Leaving ({why}); the game is not saved."),
        }
        Ok(())
    }
}

fn read_line(input: &mut dyn BufRead, line: &mut String) -> Result<usize, CliError> {
    input
        .read_line(line)
        .map_err(|e| CliError::other(format!("reading input: {e}")))
}

const HELP: &str = "\
Type the number of an action, or its notation.
  actions     list your actions again
  view        what you see of the game
  log         every event you may see
  undo        take back your last action, where the rules allow
  save FILE   save the game to FILE
  quit        leave (the game is saved if you started it with --save)";
