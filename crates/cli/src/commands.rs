//! The commands that work on a saved game or on the data: each loads what it needs through
//! the registry, does one thing, and writes files only when everything succeeded.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use engine::{DataSet, Dice, DiceMode, GameRecord, Pending, RecordError, Seat, Source, Viewer};
use registry::AnyGame;
use serde_json::{json, Value};

use crate::error::CliError;
use crate::{output, text};

/// What every command shares: where the override data folder is.
pub struct Context {
    /// The `--data` folder (or `CRUSADES_DATA`).
    pub data_dir: Option<PathBuf>,
}

impl Context {
    /// The data of every game, with the override folder on top. Bad data is bad input.
    pub fn data(&self) -> Result<DataSet, CliError> {
        registry::all_data(self.data_dir.as_deref())
            .map_err(|e| CliError::bad(format!("bad data:\n{e}")))
    }
}

/// Reads a saved game and replays it. Errors name the file.
pub fn open(ctx: &Context, file: &Path) -> Result<Box<dyn AnyGame>, CliError> {
    let data = ctx.data()?;
    let record = read_record(file)?;
    registry::from_record(record, &data)
        .map_err(|e| CliError::new(e.is_bad_input(), format!("{}: {e}", file.display())))
}

/// Reads a record, naming the file in errors (input/output errors already do).
fn read_record(file: &Path) -> Result<GameRecord, CliError> {
    GameRecord::load(file).map_err(|e| match e {
        RecordError::Io { .. } => CliError::other(e),
        e => CliError::bad(format!("{}: {e}", file.display())),
    })
}

/// Saves a game atomically; the file is untouched on error.
pub fn save(game: &dyn AnyGame, file: &Path) -> Result<(), CliError> {
    game.save(file).map_err(CliError::other)
}

/// The seat of this name, or an error listing the seats.
pub fn seat(game: &dyn AnyGame, name: &str) -> Result<Seat, CliError> {
    game.seat_named(name).ok_or_else(|| {
        CliError::bad(format!(
            "no seat `{name}` in {} (seats: {})",
            game.scenario(),
            game.seat_names().join(", ")
        ))
    })
}

/// The viewer for an optional seat name: that seat, or a spectator.
pub fn viewer(game: &dyn AnyGame, name: Option<&str>) -> Result<Viewer, CliError> {
    Ok(match name {
        Some(n) => Viewer::Seat(seat(game, n)?),
        None => Viewer::Spectator,
    })
}

fn viewer_name(game: &dyn AnyGame, viewer: Viewer) -> Option<String> {
    match viewer {
        Viewer::Seat(s) => Some(game.seat_name(s)),
        Viewer::Spectator => None,
    }
}

/// Writes `bytes` to `path` atomically: a temporary file in the same folder, renamed over it.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let io = |e: std::io::Error| CliError::other(format!("{}: {e}", path.display()));
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(io)?;
    tmp.write_all(bytes).map_err(io)?;
    tmp.as_file().sync_all().map_err(io)?;
    tmp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}

/// A seed from the clock and the process id, for games started without `--seed`.
pub fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    // SplitMix64 finaliser, so that close clocks give unrelated seeds.
    let mut z = nanos ^ (u64::from(std::process::id()) << 32);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `crusades scenarios`.
pub fn scenarios(ctx: &Context, json: bool) -> Result<(), CliError> {
    let list =
        registry::scenarios(&ctx.data()?).map_err(|e| CliError::bad(format!("bad data:\n{e}")))?;
    if json {
        output::print(json!({ "scenarios": list }));
        return Ok(());
    }
    for s in &list {
        say!("{}  {}", s.id, s.title);
        say!("    seats: {}", s.seats.join(", "));
        say!("    AI players: {}", s.players.join(", "));
        for o in &s.options {
            say!("    --option {}: {}", o.name, o.about);
        }
    }
    Ok(())
}

/// The arguments of `crusades new`.
pub struct NewArgs {
    /// The full scenario id.
    pub scenario: String,
    /// The seed of the dice, if given.
    pub seed: Option<u64>,
    /// Options in use.
    pub options: Vec<String>,
    /// A position file to start from.
    pub position: Option<PathBuf>,
    /// Whether players enter the dice.
    pub manual_dice: bool,
    /// Where to save the game.
    pub out: PathBuf,
    /// Whether to overwrite `out`.
    pub force: bool,
    /// Whether to print JSON.
    pub json: bool,
}

/// `crusades new`.
pub fn new(ctx: &Context, args: NewArgs) -> Result<(), CliError> {
    if args.out.exists() && !args.force {
        return Err(CliError::bad(format!(
            "{} exists: choose another file or add --force to overwrite it",
            args.out.display()
        )));
    }
    let data = ctx.data()?;
    let position = match &args.position {
        Some(p) => Some(
            std::fs::read_to_string(p)
                .map_err(|e| CliError::other(format!("{}: {e}", p.display())))?,
        ),
        None => None,
    };
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let dice = if args.manual_dice {
        DiceMode::Manual
    } else {
        DiceMode::Seeded
    };
    let game = registry::new_game(&args.scenario, &args.options, seed, dice, position, &data)?;
    save(game.as_ref(), &args.out)?;
    let pending = game.pending();
    if args.json {
        output::print(json!({
            "file": args.out.display().to_string(),
            "scenario": game.scenario(),
            "seed": seed,
            "dice": dice_name(dice),
            "options": args.options,
            "seats": game.seat_names(),
            "pending": output::pending_names(game.as_ref(), &pending),
        }));
    } else {
        say!(
            "Started {} (seed {seed}, {} dice) in {}.",
            game.scenario(),
            dice_name(dice),
            args.out.display()
        );
        say!("{}", text::pending_line(game.as_ref()));
    }
    Ok(())
}

fn dice_name(dice: DiceMode) -> &'static str {
    match dice {
        DiceMode::Seeded => "seeded",
        DiceMode::Manual => "manual",
    }
}

/// `crusades status`: what a spectator may know (turn, phase, who must decide, outcome).
pub fn status(ctx: &Context, file: &Path, json: bool) -> Result<(), CliError> {
    let game = open(ctx, file)?;
    let board = game.board(Viewer::Spectator);
    let pending = game.pending();
    if json {
        output::print(json!({
            "game": game.game_id(),
            "scenario": game.scenario(),
            "title": board.title,
            "seats": game.seat_names(),
            "status": board.status,
            "pending": output::pending_names(game.as_ref(), &pending),
            "over": pending == Pending::Over,
            "outcome": output::outcome(game.as_ref(), game.outcome().as_ref()),
            "dice": dice_name(game.record().dice),
        }));
        return Ok(());
    }
    say!("{}: {}", game.scenario(), board.title);
    for line in &board.status {
        say!("{line}");
    }
    say!("{}", text::pending_line(game.as_ref()));
    Ok(())
}

/// `crusades actions`.
pub fn actions(ctx: &Context, file: &Path, seat_name: &str, json: bool) -> Result<(), CliError> {
    let game = open(ctx, file)?;
    let s = seat(game.as_ref(), seat_name)?;
    let list = game.legal_actions(s);
    let pending = game.pending();
    if json {
        output::print(json!({
            "seat": game.seat_name(s),
            "pending": pending.seats().contains(&s),
            "actions": game.describe_actions(s),
        }));
        return Ok(());
    }
    if list.is_empty() {
        say!(
            "{} has no decision to make now. {}",
            game.seat_name(s),
            text::pending_line(game.as_ref())
        );
    }
    for a in &list {
        say!("{a}");
    }
    Ok(())
}

/// `crusades act`.
pub fn act(
    ctx: &Context,
    file: &Path,
    seat_name: &str,
    action: &str,
    dice: Option<&str>,
    json: bool,
) -> Result<(), CliError> {
    let mut game = open(ctx, file)?;
    let s = seat(game.as_ref(), seat_name)?;
    let entered = match dice {
        Some(text) => {
            Dice::parse_entered(text).map_err(|e| CliError::bad(format!("--dice: {e}")))?
        }
        None => Vec::new(),
    };
    let events = game
        .act(s, action, &entered)
        .map_err(|e| CliError::new(e.is_bad_input(), e))?;
    save(game.as_ref(), file)?;
    let names = game.seat_names();
    let pending = game.pending();
    if json {
        output::print(json!({
            "seat": game.seat_name(s),
            "action": game.record().actions.last().map(|a| a.action.clone()),
            "events": output::events(&names, &events),
            "pending": output::pending_names(game.as_ref(), &pending),
            "outcome": output::outcome(game.as_ref(), game.outcome().as_ref()),
        }));
        return Ok(());
    }
    text::print_events(&names, &events);
    say!("{}", text::pending_line(game.as_ref()));
    Ok(())
}

/// `crusades undo`.
pub fn undo(ctx: &Context, file: &Path, seat_name: &str, json: bool) -> Result<(), CliError> {
    let mut game = open(ctx, file)?;
    let s = seat(game.as_ref(), seat_name)?;
    let undone = game
        .undo(s)
        .map_err(|e| CliError::new(e.is_bad_input(), e))?;
    save(game.as_ref(), file)?;
    let pending = game.pending();
    if json {
        output::print(json!({
            "seat": undone.seat,
            "undone": undone.action,
            "pending": output::pending_names(game.as_ref(), &pending),
        }));
        return Ok(());
    }
    say!("Took back `{}` by {}.", undone.action, undone.seat);
    say!("{}", text::pending_line(game.as_ref()));
    Ok(())
}

/// The view document of `view --json` (and the body of the text form).
fn view_doc(game: &dyn AnyGame, viewer: Viewer) -> Value {
    let view = game.view_json(viewer);
    let names = game.seat_names();
    let events = game.events(viewer);
    let board = game.board(viewer);
    let actions = match viewer {
        Viewer::Seat(s) => game.legal_actions(s),
        Viewer::Spectator => Vec::new(),
    };
    let pending = game.pending();
    json!({
        "game": game.game_id(),
        "scenario": game.scenario(),
        "title": board.title,
        "viewer": viewer_name(game, viewer),
        "seats": names,
        "status": board.status,
        "pending": output::pending_names(game, &pending),
        "actions": output::actions(&actions),
        "outcome": output::outcome(game, game.outcome().as_ref()),
        "state": view.get("state").cloned().unwrap_or(Value::Null),
        "log": output::events(&names, &events),
    })
}

/// How many legal actions the text form of `view` shows.
const SHOWN_ACTIONS: usize = 12;

/// How many recent events the text form of `view` shows.
const RECENT: usize = 10;

/// `crusades view`.
pub fn view(
    ctx: &Context,
    file: &Path,
    seat_name: Option<&str>,
    json: bool,
) -> Result<(), CliError> {
    let game = open(ctx, file)?;
    let viewer = viewer(game.as_ref(), seat_name)?;
    if json {
        output::print(view_doc(game.as_ref(), viewer));
        return Ok(());
    }
    for line in view_text(game.as_ref(), viewer, RECENT) {
        say!("{line}");
    }
    Ok(())
}

/// The text form of a view: title, status, who must decide, the viewer's actions, the game's
/// view of its state and the last `recent` events.
pub fn view_text(game: &dyn AnyGame, viewer: Viewer, recent: usize) -> Vec<String> {
    let board = game.board(viewer);
    let who = viewer_name(game, viewer).unwrap_or_else(|| "a spectator".into());
    let mut out = vec![format!(
        "{}: {}, as seen by {who}",
        game.scenario(),
        board.title
    )];
    out.extend(board.status.iter().cloned());
    out.push(text::pending_line(game));
    if let Viewer::Seat(s) = viewer {
        let actions = game.legal_actions(s);
        if actions.len() > SHOWN_ACTIONS {
            out.push(format!(
                "Your actions ({} in all; `crusades actions` lists them): {} | ...",
                actions.len(),
                actions[..SHOWN_ACTIONS].join(" | ")
            ));
        } else if !actions.is_empty() {
            out.push(format!("Your actions: {}", actions.join(" | ")));
        }
    }
    out.push("State:".into());
    let view = game.view_json(viewer);
    text::json_lines(view.get("state").unwrap_or(&Value::Null), 2, &mut out);
    let events = game.events(viewer);
    if !events.is_empty() {
        let from = events.len().saturating_sub(recent);
        out.push(format!(
            "Recent events ({} of {}):",
            events.len() - from,
            events.len()
        ));
        let names = game.seat_names();
        for e in &events[from..] {
            out.extend(
                text::event_lines(&names, e)
                    .into_iter()
                    .map(|l| format!("  {l}")),
            );
        }
    }
    out
}

/// `crusades log`.
pub fn log(
    ctx: &Context,
    file: &Path,
    seat_name: Option<&str>,
    json: bool,
) -> Result<(), CliError> {
    let game = open(ctx, file)?;
    let viewer = viewer(game.as_ref(), seat_name)?;
    let events = game.events(viewer);
    let names = game.seat_names();
    if json {
        output::print(json!({
            "viewer": viewer_name(game.as_ref(), viewer),
            "events": output::events(&names, &events),
        }));
        return Ok(());
    }
    for (i, e) in events.iter().enumerate() {
        for (j, line) in text::event_lines(&names, e).into_iter().enumerate() {
            if j == 0 {
                say!("{:>4}. {line}", i + 1);
            } else {
                say!("      {line}");
            }
        }
    }
    Ok(())
}

/// `crusades render`.
pub fn render(
    ctx: &Context,
    file: &Path,
    seat_name: Option<&str>,
    svg: &Path,
) -> Result<(), CliError> {
    let game = open(ctx, file)?;
    let viewer = viewer(game.as_ref(), seat_name)?;
    let picture = engine::render_svg(&game.board(viewer));
    write_atomic(svg, picture.as_bytes())?;
    say!("Wrote {}.", svg.display());
    Ok(())
}

/// `crusades replay`: a mismatch is printed and exits with 2.
pub fn replay(ctx: &Context, file: &Path, json: bool) -> Result<(), CliError> {
    let data = ctx.data()?;
    let record = read_record(file)?;
    let report = registry::replay(record, &data)
        .map_err(|e| CliError::new(e.is_bad_input(), format!("{}: {e}", file.display())))?;
    if json {
        output::print(json!({
            "game": report.game,
            "scenario": report.scenario,
            "actions": report.actions,
            "state_hash": report.found,
            "expected": report.expected,
            "matches": report.matches,
            "data_changed": report.data_changed,
        }));
    } else {
        say!(
            "{}: replayed {} actions; final state hash {}; {}",
            report.scenario,
            report.actions,
            report.found,
            if report.matches {
                "matches the record".to_string()
            } else {
                format!("does NOT match the record ({})", report.expected)
            }
        );
        if report.data_changed {
            say!("(the game's data files differ from those it was saved with)");
        }
    }
    if report.matches {
        Ok(())
    } else {
        Err(CliError::bad(format!(
            "{}: the replayed game differs from the saved one: state hash {}, the record says {}{}",
            file.display(),
            report.found,
            report.expected,
            if report.data_changed {
                " (the game's data files have changed since it was saved)"
            } else {
                " (edited or damaged save?)"
            }
        )))
    }
}

/// `crusades data audit`.
pub fn audit(ctx: &Context, json: bool) -> Result<(), CliError> {
    let entries =
        registry::audit(&ctx.data()?).map_err(|e| CliError::bad(format!("bad data:\n{e}")))?;
    let mut files: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for e in &entries {
        let count = files.entry(e.file.as_str()).or_default();
        match e.source {
            Source::Printed => count.0 += 1,
            Source::Reconstructed => count.1 += 1,
        }
    }
    if json {
        let summary: Vec<Value> = files
            .iter()
            .map(|(f, (p, r))| json!({ "file": f, "printed": p, "reconstructed": r }))
            .collect();
        output::print(json!({ "entries": entries, "files": summary }));
        return Ok(());
    }
    let (mut printed, mut reconstructed) = (0, 0);
    for (file, (p, r)) in &files {
        printed += p;
        reconstructed += r;
        say!("{file}: {p} printed, {r} reconstructed");
        for e in entries
            .iter()
            .filter(|e| e.file == *file && e.source == Source::Reconstructed)
        {
            say!("    reconstructed: {}: {}", e.item, e.reason);
        }
    }
    say!(
        "Total: {} values, {printed} printed, {reconstructed} reconstructed.",
        entries.len()
    );
    Ok(())
}
