//! Engineering (13.0): filling the foss and its clearing at the end of every Game-Turn
//! (13.1, Addenda to 13.12), the Crusader tunnels with their four bases, rock and collapse,
//! single shafts and cave-ins (13.2), and the Moslem engineers' discovery and subterranean
//! combat with its closures (13.3, 13.4).
//!
//! The tunnels are the Crusader player's secret (13.23): everything here is whole-state;
//! what each seat may see is decided by the view.

use std::collections::BTreeSet;

use engine::{Event, RollRecord};
use hexgrid::Hex;
use serde::{Deserialize, Serialize};

use crate::map::Class;
use crate::rules::{Rules, Side};
use crate::Position;

/// Acre 13.11, 15.12, 9.23: whether a Crusader unit may fill the adjacent foss hex: a
/// non-cavalry, undisrupted combat unit that did not move this Movement Segment, next to a
/// vacant unfilled foss hex.
pub fn may_fill(
    rules: &Rules,
    pos: &Position,
    unit: usize,
    moved: bool,
    foss: Hex,
) -> Result<(), String> {
    match fill_fault(rules, pos, unit, moved, foss) {
        None => Ok(()),
        Some(fault) => Err(fault.text(rules, foss)),
    }
}

/// Acre 13.11, 15.12, 9.23: whether [`may_fill`] accepts the filling, without wording a
/// refusal (the legal actions ask it of every Crusader unit's neighbours).
pub fn fill_allowed(rules: &Rules, pos: &Position, unit: usize, moved: bool, foss: Hex) -> bool {
    fill_fault(rules, pos, unit, moved, foss).is_none()
}

/// Why [`may_fill`] refuses a filling, worded by [`FillFault::text`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FillFault {
    /// 13.11: not a Crusader unit.
    NotCrusader,
    /// 15.12: cavalry.
    Cavalry,
    /// 9.23: disrupted.
    Disrupted,
    /// 13.11: moved this Movement Segment.
    Moved,
    /// Not on the map.
    OffMap,
    /// 13.11: the hex is not a vacant unfilled foss hex next to the unit.
    NotVacantFoss,
}

impl FillFault {
    /// The refusal in words, for the foss hex `foss`.
    fn text(self, rules: &Rules, foss: Hex) -> String {
        match self {
            FillFault::NotCrusader => "only Crusader units fill the foss (13.11)".into(),
            FillFault::Cavalry => "cavalry may not fill the foss (15.12)".into(),
            FillFault::Disrupted => "a disrupted unit may not fill the foss (9.23)".into(),
            FillFault::Moved => {
                "only a unit that has not moved this Movement Segment may fill (13.11)".into()
            }
            FillFault::OffMap => "the unit is not on the map".into(),
            FillFault::NotVacantFoss => format!(
                "{} is not a vacant unfilled foss hex next to the unit (13.11)",
                rules.map.id(foss)
            ),
        }
    }
}

/// Acre 13.11, 15.12, 9.23: the first reason [`may_fill`] refuses the filling, if any.
fn fill_fault(
    rules: &Rules,
    pos: &Position,
    unit: usize,
    moved: bool,
    foss: Hex,
) -> Option<FillFault> {
    if rules.side_of(unit) != Side::Crusader {
        return Some(FillFault::NotCrusader);
    }
    if rules.unit_type(unit).cavalry {
        return Some(FillFault::Cavalry);
    }
    if pos.units[unit].disrupted {
        return Some(FillFault::Disrupted);
    }
    if moved {
        return Some(FillFault::Moved);
    }
    let Some(at) = pos.hex_of(unit) else {
        return Some(FillFault::OffMap);
    };
    if !at.is_adjacent(foss) || !pos.unfilled_foss(rules, foss) || pos.unit_at(foss).is_some() {
        return Some(FillFault::NotVacantFoss);
    }
    None
}

/// Acre 13.12: a filled foss hex is cleared on a roll of 1-4.
pub fn foss_cleared(roll: u8) -> bool {
    /// Acre 13.12: the highest roll that clears.
    const CLEARED_UP_TO: u8 = 4;
    roll <= CLEARED_UP_TO
}

/// Acre 13.12 with its Addenda: in the Regrouping Segment of every Game-Turn the Moslem rolls
/// once for each filled foss hex, in hex order, and clears it on 1-4. Returns one public event
/// a hex, with its roll.
pub fn unfill_foss(rules: &Rules, pos: &mut Position, dice: &mut engine::Dice) -> Vec<Event> {
    let filled: Vec<Hex> = pos.filled.iter().copied().collect();
    filled
        .into_iter()
        .map(|hex| {
            let roll = dice.d6();
            let cleared = foss_cleared(roll);
            if cleared {
                pos.filled.remove(&hex);
            }
            let id = rules.map.id(hex);
            let result = if cleared { "cleared" } else { "stays filled" };
            Event::public("Acre 13.12", format!("the filled foss in {id} {result}")).with_roll(
                RollRecord {
                    purpose: format!("clearing the foss in {id}"),
                    dice: vec![roll],
                    modifiers: Vec::new(),
                    total: i32::from(roll),
                    cell: Some("13.12: 1-4 cleared".into()),
                    result: result.into(),
                },
            )
        })
        .collect()
}

/// The Crusader tunnels (13.2): the four bases, one shaft from each, and the hexes struck by
/// rock or closed in subterranean combat.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tunnels {
    /// Tunnel Bases in the order built (their counters are on the map: 13.22).
    pub bases: Vec<Hex>,
    /// Each base's shaft: the operative Tunnel hexes in order from the base.
    pub shafts: Vec<Vec<Hex>>,
    /// Inoperative Tunnel hexes: rock or collapse (13.24), closures (13.32), cave-ins (13.28).
    pub inoperative: BTreeSet<Hex>,
    /// Bases whose tunnel has been caved in (13.28, 13.29) or destroyed (13.22).
    pub spent: Vec<bool>,
    /// Tunnel hexes whose location the Moslem player knows (13.23): discovered in
    /// subterranean combat with the hexes it closed (13.31, 13.32), caved in (13.28), or
    /// revealed with a destroyed base (13.22).
    #[serde(default)]
    pub known: BTreeSet<Hex>,
    /// Tunnel Points per Game-Turn (13.21, 13.32).
    pub points: u8,
    /// Tunnel hexes extended into a Wall or Tower hex this Game-Turn, by base (13.28).
    pub new_wall_hexes: Vec<(usize, Hex)>,
}

/// Acre 13.2, 13.22 and the Mine Planning Sheet: the hexes a tunnel may pass under: land
/// outside the city's streets, not marsh or the Belus ravine (see rules-notes).
pub fn tunnellable(rules: &Rules, hex: Hex) -> bool {
    matches!(
        rules.map.class(hex),
        Class::Clear
            | Class::Road
            | Class::Camp
            | Class::Outerworks
            | Class::Foss
            | Class::Wall
            | Class::Tower
    )
}

/// Why a shaft may not be extended into a hex (Acre 13.22-13.29; [`Tunnels::check_extend`]
/// words it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ExtendRefusal {
    /// Not every Tunnel Base is built yet (13.22).
    BasesIncomplete,
    /// The base's one tunnel is spent (13.29).
    Spent,
    /// The hex is not next to the shaft's end (13.26, 13.27).
    NotNextToEnd,
    /// No tunnel may pass under the hex (the Mine Planning Sheet).
    NotTunnellable,
    /// The hex struck rock (13.24).
    Inoperative,
    /// The hex is a base or a Tunnel hex already.
    AlreadyTunnel,
    /// The hex touches this other Tunnel hex or base (13.27).
    Touches(Hex),
}

impl Tunnels {
    /// No tunnels yet, with the scenario's Tunnel Points.
    pub fn new(rules: &Rules) -> Tunnels {
        Tunnels {
            points: rules.scenario.engineering.tunnel_points,
            ..Tunnels::default()
        }
    }

    /// Whether every Tunnel Base has been built (13.22).
    pub fn bases_complete(&self, rules: &Rules) -> bool {
        self.bases.len() >= rules.scenario.engineering.tunnel_bases as usize
    }

    /// Acre 13.22: whether a Tunnel Base may be built in the hex: Clear terrain at least
    /// eight hexes from the nearest Wall or Tower hex, on the Crusaders' ground, not already a
    /// base, while fewer than four are built.
    pub fn check_base(&self, rules: &Rules, hex: Hex) -> Result<(), String> {
        if self.bases_complete(rules) {
            return Err("all four Tunnel Bases are built; no more may ever be (13.22)".into());
        }
        if rules.map.class(hex) != Class::Clear {
            return Err(format!(
                "{} is not Clear terrain (13.22)",
                rules.map.id(hex)
            ));
        }
        let d = rules
            .map
            .distance_to(hex, &[Class::Wall, Class::Tower])
            .unwrap_or(u32::MAX);
        if d < rules.scenario.engineering.tunnel_base_distance {
            return Err(format!(
                "{} is {d} hexes from a Wall or Tower hex; a Tunnel Base needs {} (13.22)",
                rules.map.id(hex),
                rules.scenario.engineering.tunnel_base_distance
            ));
        }
        if !rules.map.is_between(hex) {
            return Err(format!(
                "{} is not between the outerworks and the foss",
                rules.map.id(hex)
            ));
        }
        if self.bases.contains(&hex) {
            return Err(format!("{} is already a Tunnel Base", rules.map.id(hex)));
        }
        Ok(())
    }

    /// Builds a checked Tunnel Base.
    pub fn build_base(&mut self, hex: Hex) {
        self.bases.push(hex);
        self.shafts.push(Vec::new());
        self.spent.push(false);
    }

    /// The hex a base's shaft continues from: its last operative hex, or the base.
    pub fn end(&self, base: usize) -> Hex {
        self.shafts[base]
            .last()
            .copied()
            .unwrap_or(self.bases[base])
    }

    /// Whether a hex is an operative Tunnel hex, and of which base.
    pub fn operative(&self, hex: Hex) -> Option<usize> {
        self.shafts.iter().position(|s| s.contains(&hex))
    }

    /// Acre 13.24, 13.26, 13.27: whether base `base`'s shaft may be extended into `hex`:
    /// next to the shaft's end, a hex a tunnel may pass under, never an inoperative hex or one
    /// already tunnelled, and touching no other operative Tunnel hex or base: one single
    /// mineshaft that neither branches nor crosses another. The refusal worded.
    pub fn check_extend(&self, rules: &Rules, base: usize, hex: Hex) -> Result<(), String> {
        let Some(refusal) = self.extend_refusal(rules, base, hex) else {
            return Ok(());
        };
        let id = rules.map.id(hex);
        Err(match refusal {
            ExtendRefusal::BasesIncomplete => {
                "all four Tunnel Bases must be built before any Tunnel hex (13.22)".into()
            }
            ExtendRefusal::Spent => "that Tunnel Base's one tunnel is spent (13.29)".into(),
            ExtendRefusal::NotNextToEnd => {
                format!("{id} is not next to the end of the tunnel (13.26, 13.27)")
            }
            ExtendRefusal::NotTunnellable => {
                format!("{id} cannot be tunnelled (Mine Planning Sheet)")
            }
            ExtendRefusal::Inoperative => {
                format!("{id} is inoperative: no tunnel may enter it (13.24)")
            }
            ExtendRefusal::AlreadyTunnel => format!("{id} is already part of a tunnel"),
            ExtendRefusal::Touches(n) => format!(
                "{id} would touch tunnel hex {}: a tunnel is a single shaft that neither branches nor crosses another (13.27)",
                rules.map.id(n)
            ),
        })
    }

    /// [`Tunnels::check_extend`] as a yes or no, with no refusal worded: a search re-samples
    /// the tunnels it cannot see hex by hex ([`Tunnels::determinize`]).
    pub fn may_extend(&self, rules: &Rules, base: usize, hex: Hex) -> bool {
        self.extend_refusal(rules, base, hex).is_none()
    }

    /// Acre 13.22, 13.24, 13.26, 13.27, 13.29: why base `base`'s shaft may not be extended
    /// into `hex`, if it may not ([`Tunnels::check_extend`]).
    fn extend_refusal(&self, rules: &Rules, base: usize, hex: Hex) -> Option<ExtendRefusal> {
        if !self.bases_complete(rules) {
            return Some(ExtendRefusal::BasesIncomplete);
        }
        if self.spent.get(base).copied().unwrap_or(true) {
            return Some(ExtendRefusal::Spent);
        }
        if !self.end(base).is_adjacent(hex) {
            return Some(ExtendRefusal::NotNextToEnd);
        }
        if !tunnellable(rules, hex) {
            return Some(ExtendRefusal::NotTunnellable);
        }
        if self.inoperative.contains(&hex) {
            return Some(ExtendRefusal::Inoperative);
        }
        if self.bases.contains(&hex) || self.operative(hex).is_some() {
            return Some(ExtendRefusal::AlreadyTunnel);
        }
        let own_end = self.end(base);
        for (b, shaft) in self.shafts.iter().enumerate() {
            let nodes = std::iter::once(self.bases[b]).chain(shaft.iter().copied());
            for n in nodes {
                if n != own_end && n.is_adjacent(hex) {
                    return Some(ExtendRefusal::Touches(n));
                }
            }
        }
        None
    }

    /// Acre 13.24, 13.25: digs one checked Tunnel hex with its roll: a 6 strikes rock and the
    /// hex becomes inoperative (returns false: the rest of the points allocated to this
    /// tunnel this Game-Turn are lost); otherwise the shaft is extended.
    pub fn dig(&mut self, rules: &Rules, base: usize, hex: Hex, roll: u8) -> bool {
        /// Acre 13.24: the roll that strikes rock.
        const ROCK: u8 = 6;
        if roll == ROCK {
            self.inoperative.insert(hex);
            return false;
        }
        self.shafts[base].push(hex);
        if rules.map.is_wall_or_tower(hex) {
            self.new_wall_hexes.push((base, hex));
        }
        true
    }

    /// Acre 13.31: whether the Moslem player may search a hex: within three hexes of a
    /// Wall or Tower hex that the Moslems hold (no Crusader combat unit in it).
    pub fn may_search(rules: &Rules, pos: &Position, hex: Hex) -> bool {
        let range = rules.scenario.engineering.discovery_range;
        rules
            .map
            .hexes_of(&[Class::Wall, Class::Tower])
            .into_iter()
            .filter(|w| pos.side_at(rules, *w) != Some(Side::Crusader))
            .any(|w| w.distance(hex) <= range)
    }

    /// Acre 13.4, 13.32, 13.26: the subterranean combat found at an operative Tunnel hex, with
    /// its roll: returns (Moslem Engineer Points lost, Crusader Tunnel Points lost, hexes
    /// closed). Closed hexes become inoperative; Tunnel hexes cut off from their base cease to
    /// exist; the Crusaders never fall below one Tunnel Point.
    pub fn subterranean_combat(&mut self, rules: &Rules, hex: Hex, roll: u8) -> (u8, u8, Vec<Hex>) {
        let i = (roll.clamp(1, 6) - 1) as usize;
        let t = &rules.tables;
        let moslem_lost = t.sub_moslem_lost[i];
        let crusader_lost = t.sub_crusader_lost[i].min(self.points.saturating_sub(1));
        self.points -= crusader_lost;
        let Some(base) = self.operative(hex) else {
            return (moslem_lost, crusader_lost, Vec::new());
        };
        self.known.insert(hex);
        let shaft = &mut self.shafts[base];
        let at = shaft.iter().position(|h| *h == hex).unwrap_or(0);
        // 3 closed: the hex and one Tunnel hex each way along the shaft (never the base).
        let reach = if t.sub_closed[i] >= 3 { 1 } else { 0 };
        let from = at.saturating_sub(reach);
        let to = (at + reach).min(shaft.len() - 1);
        let closed: Vec<Hex> = shaft[from..=to].to_vec();
        self.inoperative.extend(closed.iter().copied());
        self.known.extend(closed.iter().copied());
        // 13.26: everything beyond the first closed hex is cut off and ceases to exist.
        shaft.truncate(from);
        self.new_wall_hexes
            .retain(|(b, h)| *b != base || shaft.contains(h));
        (moslem_lost, crusader_lost, closed)
    }

    /// Acre 13.28, 13.29: caves in an undiscovered tunnel hex dug into a Wall or Tower hex
    /// this Game-Turn: the wall is breached for the rest of the game, and the whole tunnel,
    /// base included, becomes inoperative.
    pub fn check_cave_in(&self, rules: &Rules, hex: Hex) -> Result<usize, String> {
        self.new_wall_hexes
            .iter()
            .find(|(b, h)| *h == hex && !self.spent[*b])
            .map(|(b, _)| *b)
            .ok_or_else(|| {
                format!(
                    "{} is not a Wall or Tower hex tunnelled this Game-Turn and still undiscovered (13.28)",
                    rules.map.id(hex)
                )
            })
    }

    /// Acre 13.28: the cave-in itself (after [`Tunnels::check_cave_in`]).
    pub fn cave_in(&mut self, pos: &mut Position, base: usize, hex: Hex) {
        pos.caved_in.insert(hex);
        self.known.insert(hex);
        let shaft = std::mem::take(&mut self.shafts[base]);
        self.inoperative.extend(shaft);
        self.inoperative.insert(self.bases[base]);
        self.spent[base] = true;
        self.new_wall_hexes.retain(|(b, _)| *b != base);
    }

    /// Acre 13.22: a Moslem combat unit stayed in a Tunnel Base hex for a whole Movement
    /// Segment: the base and every Tunnel hex connected to it are destroyed, and revealed.
    /// Returns the hexes revealed.
    pub fn destroy_base(&mut self, base: usize) -> Vec<Hex> {
        let shaft = std::mem::take(&mut self.shafts[base]);
        self.spent[base] = true;
        self.new_wall_hexes.retain(|(b, _)| *b != base);
        self.known.extend(shaft.iter().copied());
        shaft
    }

    /// Acre 13.23: a copy for the Moslem's searches in which everything he cannot see is drawn
    /// afresh from `rng`: the hidden inoperative hexes are dropped (every roll struck earth)
    /// and each unspent base gets a new single shaft, a random walk of a random length up to
    /// `max_len` through hexes it may enter and he does not know of; a shaft ending in a Wall
    /// or Tower hex may be caved in (13.28). Hexes he knows of stay as they are (they are never
    /// operative: discovery closes them). How much is drawn depends only on the number of
    /// bases and on `max_len`, which the caller takes from what the Moslem sees (the Tunnel
    /// Points and the Game-Turns gone).
    pub fn determinize(
        &self,
        rules: &Rules,
        max_len: u32,
        rng: &mut dyn rand_core::RngCore,
    ) -> Tunnels {
        self.redraw(rules, max_len, rng, true)
    }

    /// [`Tunnels::determinize`] asking [`Tunnels::may_extend`] of each hex a shaft might
    /// enter: the plain rule that the board of tunnel hexes it keeps instead is checked
    /// against (tests/shortcuts.rs).
    pub fn plain_determinize(
        &self,
        rules: &Rules,
        max_len: u32,
        rng: &mut dyn rand_core::RngCore,
    ) -> Tunnels {
        self.redraw(rules, max_len, rng, false)
    }

    /// [`Tunnels::determinize`], with a board of the tunnel hexes drawn so far if `board`.
    fn redraw(
        &self,
        rules: &Rules,
        max_len: u32,
        rng: &mut dyn rand_core::RngCore,
        board: bool,
    ) -> Tunnels {
        let mut copy = self.clone();
        copy.inoperative = self
            .inoperative
            .intersection(&self.known)
            .copied()
            .collect();
        copy.shafts = vec![Vec::new(); self.bases.len()];
        copy.new_wall_hexes.clear();
        // Every base and Tunnel hex by grid index, so that each step asks whether a hex is a
        // tunnel hex or touches one (13.24, 13.27) without going over every shaft, and only
        // then whether the Moslem knows it: the answers of `Tunnels::may_extend` for a hex
        // next to the shaft's end, whose base is not spent (the inoperative hexes kept are
        // known).
        let mut nodes = vec![false; if board { rules.map.grid.len() } else { 0 }];
        let mark = |nodes: &mut [bool], h: Hex| {
            if let Some(i) = rules.map.index(h).filter(|_| board) {
                nodes[i] = true;
            }
        };
        copy.bases.iter().for_each(|&h| mark(&mut nodes, h));
        let complete = copy.bases_complete(rules);
        for base in 0..self.bases.len() {
            let len = rng.next_u32() % (max_len + 1);
            for step in 0..max_len {
                let pick = rng.next_u32() as usize;
                if step >= len || copy.spent[base] {
                    continue;
                }
                let end = copy.end(base);
                let mut options = [Hex::default(); 6];
                let mut n = 0;
                let mut offer = |h: Hex| {
                    if n < options.len() {
                        options[n] = h;
                        n += 1;
                    }
                };
                match rules.map.index(end).filter(|_| board) {
                    Some(e) => {
                        for i in rules.map.neighbour_indices(e) {
                            let h = rules.map.hex_at_index(i);
                            if complete
                                && !nodes[i]
                                && tunnellable(rules, h)
                                && !rules.map.neighbour_indices(i).any(|x| x != e && nodes[x])
                                && !self.known.contains(&h)
                            {
                                offer(h);
                            }
                        }
                    }
                    None => {
                        for h in rules.map.neighbours(end) {
                            if !self.known.contains(&h) && copy.may_extend(rules, base, h) {
                                offer(h);
                            }
                        }
                    }
                }
                let options = &mut options[..n];
                options.sort();
                if let Some(&h) = options.get(pick % n.max(1)) {
                    copy.shafts[base].push(h);
                    mark(&mut nodes, h);
                }
            }
            if let Some(&end) = copy.shafts[base].last() {
                if rules.map.is_wall_or_tower(end) {
                    copy.new_wall_hexes.push((base, end));
                }
            }
        }
        copy
    }

    /// Acre 13.22, 13.23: the tunnels as `side` sees them. The Crusader sees his Mine
    /// Planning Sheet whole. The Moslem sees the Tunnel Bases (their counters are on the map),
    /// which are spent, the Tunnel Points (losses come from subterranean combat, which he
    /// sees), and of the Tunnel hexes only those whose location he knows.
    pub fn seen_by(&self, side: Side) -> TunnelsView {
        let operative: BTreeSet<Hex> = self.shafts.iter().flatten().copied().collect();
        let inoperative = self.inoperative.clone();
        let (operative, inoperative) = match side {
            Side::Crusader => (operative, inoperative),
            Side::Moslem => (
                operative.intersection(&self.known).copied().collect(),
                inoperative.intersection(&self.known).copied().collect(),
            ),
        };
        TunnelsView {
            bases: self.bases.clone(),
            spent: self.spent.clone(),
            points: self.points,
            operative,
            inoperative,
        }
    }
}

/// The tunnels as one side sees them ([`Tunnels::seen_by`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TunnelsView {
    /// Tunnel Bases in the order built.
    pub bases: Vec<Hex>,
    /// Bases caved in or destroyed.
    pub spent: Vec<bool>,
    /// Tunnel Points per Game-Turn.
    pub points: u8,
    /// Operative Tunnel hexes seen.
    pub operative: BTreeSet<Hex>,
    /// Inoperative Tunnel hexes seen.
    pub inoperative: BTreeSet<Hex>,
}

/// Acre 13.3, 13.32: the Moslem engineers' points per Game-Turn after losses (never
/// increased).
pub fn engineer_points_after(points: u8, lost: u8) -> u8 {
    points.saturating_sub(lost)
}
