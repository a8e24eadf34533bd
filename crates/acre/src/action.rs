//! The actions of Acre, each a small decision in the rulebook's words, and their text
//! notation (docs/acre/notation.md): counters by their printed names in lower case with
//! hyphens (`english-men-at-arms-1`, `richard`, `giant-catapult-2`), hexes by their printed
//! four-digit ids.

use hexgrid::Hex;
use serde::{Deserialize, Serialize};

use crate::fire::Firer;
use crate::planning::Plan;
use crate::retreat::Step as RetreatStep;
use crate::setup::Piece;
use crate::state::{slug, State};

/// One decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// 17.0: set up every remaining counter of the side as in the historical quick start.
    DeployHistorical,
    /// 17.0, 14.42, 12.17, 12.24, 14.41, 11.3: put a counter in a hex.
    Place(Piece, Hex),
    /// 4.0 1.A: commit the secret plan.
    Plan(Plan),
    /// 5.0: choose the counter to move next.
    Select(Piece),
    /// 5.0, 5.16, 5.17, 7.21: move the selected counter to a hex (its cheapest path).
    Move(Hex),
    /// 15.21, 15.22: the selected knight cavalry charges: it moves to the first hex, its last
    /// four hexes Clear and in a straight line, announcing a charge at the Moslem unit in the
    /// second.
    Charge(Hex, Hex),
    /// 15.3: the Naphtha Grenadiers make a grenade attack on the Crusader unit in the hex.
    Grenade(Hex),
    /// 5.0: let the selected counter go without moving it (it may not move again this
    /// segment).
    Deselect,
    /// 13.22: build a Tunnel Base.
    Base(Hex),
    /// 13.25: allocate a Tunnel Point to extend a base's tunnel (bases numbered from 1).
    Dig(usize, Hex),
    /// 13.31: search a hex with an Engineer Point.
    Search(Hex),
    /// 13.28: cave in a tunnel under a Wall or Tower hex.
    CaveIn(Hex),
    /// 8.11: allocate a giant catapult to a Wall or Tower hex.
    Bombard(usize, Hex),
    /// 8.21: allocate a small catapult to a giant catapult.
    Counter(usize, usize),
    /// 8.31: allocate an Engineer Point to repair a Wall or Tower hex.
    Repair(Hex),
    /// 9.0: declare a fire at the unit in a hex.
    Fire(Firer, Hex),
    /// 13.11: a unit fills the adjacent foss hex.
    Fill(usize, Hex),
    /// 10.1: announce a melee attack on the hex.
    Attack(Hex),
    /// 10.14: a unit joins the melee announced.
    Join(usize),
    /// 10.0: resolve the melee announced.
    Resolve,
    /// 10.21: the defender retreats before combat.
    Evade,
    /// 10.21: the defender stands and the melee is rolled.
    Stand,
    /// 10.21: a unit retreating before combat stops, three hexes or more from where it began.
    Stop(usize),
    /// 9.3: the next hex of a unit's retreat.
    Retreat(usize, RetreatStep),
    /// 9.27: a full-strength garrison unit on an unbreached wall takes a step loss and stays.
    Hold(usize),
    /// 9.22: a leader goes along with the unit that retreated from his hex.
    Follow(usize),
    /// 9.22: the leader stays where he is.
    Stay(usize),
    /// 10.7: an attacking unit, or a leader stacked with one, advances after combat along
    /// the Path of Retreat to this hex.
    Advance(Piece, Hex),
    /// End the segment (or the allocations of the step, rolling their dice; or the advance
    /// after combat).
    End,
    /// 4.0 note: agree to end the Assault Phase after this Impulse.
    EndAssault,
    /// 4.0 note: play another Impulse.
    Continue,
}

impl Action {
    /// The notation.
    pub fn text(&self, s: &State) -> String {
        let p = |piece: Piece| s.slug(piece);
        let h = |hex: Hex| s.id(hex);
        let firer = |f: Firer| match f {
            Firer::Unit(u) => p(Piece::Unit(u)),
            Firer::Siege(e) => p(Piece::Siege(e)),
        };
        match self {
            Action::DeployHistorical => "deploy-historical".into(),
            Action::Place(piece, hex) => format!("place {} {}", p(*piece), h(*hex)),
            Action::Plan(plan) => plan.text(),
            Action::Select(piece) => format!("select {}", p(*piece)),
            Action::Move(hex) => format!("move {}", h(*hex)),
            Action::Deselect => "deselect".into(),
            Action::Charge(to, target) => format!("charge {} {}", h(*to), h(*target)),
            Action::Grenade(hex) => format!("grenade {}", h(*hex)),
            Action::Base(hex) => format!("base {}", h(*hex)),
            Action::Dig(base, hex) => format!("dig {} {}", base + 1, h(*hex)),
            Action::Search(hex) => format!("search {}", h(*hex)),
            Action::CaveIn(hex) => format!("cave-in {}", h(*hex)),
            Action::Bombard(e, hex) => format!("bombard {} {}", p(Piece::Siege(*e)), h(*hex)),
            Action::Counter(c, t) => {
                format!("counter {} {}", p(Piece::Siege(*c)), p(Piece::Siege(*t)))
            }
            Action::Repair(hex) => format!("repair {}", h(*hex)),
            Action::Fire(f, hex) => format!("fire {} {}", firer(*f), h(*hex)),
            Action::Fill(u, hex) => format!("fill {} {}", p(Piece::Unit(*u)), h(*hex)),
            Action::Attack(hex) => format!("attack {}", h(*hex)),
            Action::Join(u) => format!("join {}", p(Piece::Unit(*u))),
            Action::Resolve => "resolve".into(),
            Action::Evade => "evade".into(),
            Action::Stand => "stand".into(),
            Action::Stop(u) => format!("stop {}", p(Piece::Unit(*u))),
            Action::Retreat(u, RetreatStep::To(hex)) => {
                format!("retreat {} {}", p(Piece::Unit(*u)), h(*hex))
            }
            Action::Retreat(u, RetreatStep::OffMap) => {
                format!("retreat {} off-map", p(Piece::Unit(*u)))
            }
            Action::Hold(u) => format!("hold {}", p(Piece::Unit(*u))),
            Action::Follow(l) => format!("follow {}", p(Piece::Leader(*l))),
            Action::Stay(l) => format!("stay {}", p(Piece::Leader(*l))),
            Action::Advance(piece, hex) => format!("advance {} {}", p(*piece), h(*hex)),
            Action::End => "end".into(),
            Action::EndAssault => "end-assault".into(),
            Action::Continue => "continue".into(),
        }
    }

    /// Reads the notation, naming what is wrong.
    pub fn parse(s: &State, text: &str) -> Result<Action, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let hex = |w: &str| {
            s.rules
                .map
                .hex(w)
                .ok_or_else(|| format!("\"{w}\" is not a hex of the map (four digits, as printed)"))
        };
        let piece = |w: &str| find_piece(s, w);
        let unit = |w: &str| match find_piece(s, w)? {
            Piece::Unit(u) => Ok(u),
            _ => Err(format!("\"{w}\" is not a combat unit")),
        };
        let siege = |w: &str| match find_piece(s, w)? {
            Piece::Siege(e) => Ok(e),
            _ => Err(format!("\"{w}\" is not a siege unit")),
        };
        let leader = |w: &str| match find_piece(s, w)? {
            Piece::Leader(l) => Ok(l),
            _ => Err(format!("\"{w}\" is not a leader")),
        };
        let usage = |form: &str| Err(format!("\"{text}\": write `{form}`"));
        match words.as_slice() {
            [] => Err("an empty action".into()),
            ["deploy-historical"] => Ok(Action::DeployHistorical),
            ["place", p, h] => Ok(Action::Place(piece(p)?, hex(h)?)),
            ["place", ..] => usage("place COUNTER HEX"),
            ["plan", ..] => Plan::parse(text).map(Action::Plan),
            ["select", p] => Ok(Action::Select(piece(p)?)),
            ["select", ..] => usage("select COUNTER"),
            ["move", h] => Ok(Action::Move(hex(h)?)),
            ["move", ..] => usage("move HEX"),
            ["deselect"] => Ok(Action::Deselect),
            ["charge", to, t] => Ok(Action::Charge(hex(to)?, hex(t)?)),
            ["charge", ..] => usage("charge HEX TARGET-HEX"),
            ["grenade", t] => Ok(Action::Grenade(hex(t)?)),
            ["grenade", ..] => usage("grenade HEX"),
            ["base", h] => Ok(Action::Base(hex(h)?)),
            ["base", ..] => usage("base HEX"),
            ["dig", b, h] => {
                let n: usize = b
                    .parse()
                    .ok()
                    .filter(|n| *n >= 1)
                    .ok_or_else(|| format!("\"{b}\" is not a Tunnel Base number (1-4)"))?;
                Ok(Action::Dig(n - 1, hex(h)?))
            }
            ["dig", ..] => usage("dig BASE HEX"),
            ["search", h] => Ok(Action::Search(hex(h)?)),
            ["search", ..] => usage("search HEX"),
            ["cave-in", h] => Ok(Action::CaveIn(hex(h)?)),
            ["cave-in", ..] => usage("cave-in HEX"),
            ["bombard", e, h] => Ok(Action::Bombard(siege(e)?, hex(h)?)),
            ["bombard", ..] => usage("bombard GIANT-CATAPULT HEX"),
            ["counter", c, t] => Ok(Action::Counter(siege(c)?, siege(t)?)),
            ["counter", ..] => usage("counter SMALL-CATAPULT GIANT-CATAPULT"),
            ["repair", h] => Ok(Action::Repair(hex(h)?)),
            ["repair", ..] => usage("repair HEX"),
            ["fire", f, h] => {
                let firer = match piece(f)? {
                    Piece::Unit(u) => Firer::Unit(u),
                    Piece::Siege(e) => Firer::Siege(e),
                    Piece::Leader(_) => {
                        return Err(format!("\"{f}\" is a leader: leaders do not fire"))
                    }
                };
                Ok(Action::Fire(firer, hex(h)?))
            }
            ["fire", ..] => usage("fire UNIT HEX"),
            ["fill", u, h] => Ok(Action::Fill(unit(u)?, hex(h)?)),
            ["fill", ..] => usage("fill UNIT HEX"),
            ["attack", h] => Ok(Action::Attack(hex(h)?)),
            ["attack", ..] => usage("attack HEX"),
            ["join", u] => Ok(Action::Join(unit(u)?)),
            ["join", ..] => usage("join UNIT"),
            ["resolve"] => Ok(Action::Resolve),
            ["evade"] => Ok(Action::Evade),
            ["stand"] => Ok(Action::Stand),
            ["stop", u] => Ok(Action::Stop(unit(u)?)),
            ["stop", ..] => usage("stop UNIT"),
            ["retreat", u, "off-map"] => Ok(Action::Retreat(unit(u)?, RetreatStep::OffMap)),
            ["retreat", u, h] => Ok(Action::Retreat(unit(u)?, RetreatStep::To(hex(h)?))),
            ["retreat", ..] => usage("retreat UNIT HEX` or `retreat UNIT off-map"),
            ["hold", u] => Ok(Action::Hold(unit(u)?)),
            ["hold", ..] => usage("hold UNIT"),
            ["follow", l] => Ok(Action::Follow(leader(l)?)),
            ["follow", ..] => usage("follow LEADER"),
            ["stay", l] => Ok(Action::Stay(leader(l)?)),
            ["stay", ..] => usage("stay LEADER"),
            ["advance", c, h] => Ok(Action::Advance(piece(c)?, hex(h)?)),
            ["advance", ..] => usage("advance COUNTER HEX"),
            ["end"] => Ok(Action::End),
            ["end-assault"] => Ok(Action::EndAssault),
            ["continue"] => Ok(Action::Continue),
            [verb, ..] => Err(format!(
                "\"{verb}\" is not an action of Acre (deploy-historical, place, plan, select, \
                 move, charge, deselect, grenade, base, dig, search, cave-in, bombard, counter, repair, fire, \
                 fill, attack, join, resolve, evade, stand, stop, retreat, hold, follow, stay, \
                 advance, end, end-assault, continue)"
            )),
        }
    }
}

/// The counter of a notation name.
pub fn find_piece(s: &State, word: &str) -> Result<Piece, String> {
    let r = &s.rules;
    let units = (0..r.units.len()).map(Piece::Unit);
    let leaders = (0..r.leaders.len()).map(Piece::Leader);
    let siege = (0..r.siege.len()).map(Piece::Siege);
    units
        .chain(leaders)
        .chain(siege)
        .find(|p| slug(p.name(r)) == word)
        .ok_or_else(|| {
            format!("\"{word}\" is not a counter of Acre (names as printed, lower case, hyphens for spaces)")
        })
}
