//! Orders (5.0): everything a side does is written beforehand, in secret. Each seat writes
//! one order per leader (5.0 B, 8.0) and per fleet as a series of small actions, then
//! commits; nothing of a seat's orders reaches another seat until every seat has committed
//! (the view in [`crate::view`] shows a seat only its own book). The design, and how the
//! First Crusade's bribes, treasuries and treachery will join it, is in
//! `docs/the-crusades/orders.md`.

use std::collections::{BTreeMap, BTreeSet};

use hexgrid::HexId;
use serde::{Deserialize, Serialize};

use crate::map::Place;

/// A written path: the places or hexes entered, in order, at most [`Path::MAX`] (a land
/// move spends at most 6 MPs and each step costs at least 1, 6.1.1, 13.1; a fleet moves at
/// most 10 hexes, 12.2.1); read and written like a list. Held in place, so that the many
/// listed orders following the searched paths cost no allocation, shared count or drop.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Path<T: Copy> {
    /// How many steps.
    len: u8,
    /// The steps, then the first repeated (so that equal paths are equal arrays).
    steps: [T; MAX_STEPS],
}

/// [`Path::MAX`].
const MAX_STEPS: usize = 10;

impl<T: Copy> Path<T> {
    /// The most steps a path holds: more than any move of the game can take.
    pub const MAX: usize = MAX_STEPS;

    /// The path of `steps`, or `None` if there are none or more than [`Path::MAX`].
    pub fn new(steps: &[T]) -> Option<Path<T>> {
        let &first = steps.first()?;
        if steps.len() > Path::<T>::MAX {
            return None;
        }
        let mut all = [first; MAX_STEPS];
        all[..steps.len()].copy_from_slice(steps);
        Some(Path {
            len: steps.len() as u8,
            steps: all,
        })
    }

    /// Why a list of steps is no path ([`Path::new`]).
    pub fn refusal(steps: usize) -> String {
        if steps == 0 {
            "a path enters at least one place".into()
        } else {
            format!(
                "a path of {steps} steps is too long: no move enters more than {} (6.1.1, 12.2.1)",
                Path::<T>::MAX
            )
        }
    }
}

impl<T: Copy> std::ops::Deref for Path<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        &self.steps[..usize::from(self.len)]
    }
}

impl<T: Copy + std::fmt::Debug> std::fmt::Debug for Path<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Copy + Serialize> Serialize for Path<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

impl<'de, T: Copy + Deserialize<'de>> Deserialize<'de> for Path<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Path<T>, D::Error> {
        let steps = Vec::<T>::deserialize(d)?;
        Path::new(&steps).ok_or_else(|| serde::de::Error::custom(Path::<T>::refusal(steps.len())))
    }
}

/// A land order for one leader and the ASPs with him.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Order {
    /// The Crusades 5.1: move along a path (the places entered, in order), leaving `leave`
    /// of a Saracen leader's ASPs behind (6.1.2 B).
    Move {
        /// Places entered, after the start.
        path: Path<Place>,
        /// ASPs left behind at the start.
        leave: u16,
    },
    /// Same order as another leader of the same place: the two are one force (8.0 F).
    With {
        /// The leader whose order he shares.
        leader: usize,
    },
    /// The Crusades 5.4: defend (at least 5 ASPs); may not move.
    Defend,
    /// The Crusades 5.6: full siege.
    FullSiege,
    /// The Crusades 5.7: partial siege.
    PartialSiege,
    /// The Crusades 5.3: move outside the city and attack the besiegers.
    Sally,
    /// The Crusades 5.8: no order.
    NoOrder,
}

/// An order for one fleet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FleetOrder {
    /// The Crusades 5.1, 12.2: move along a path of hexes.
    Move {
        /// Hexes entered, after the start.
        path: Path<HexId>,
    },
    /// The Crusades 5.2, 12.5: move and transport these leaders (with their ASPs).
    Transport {
        /// The leaders carried.
        cargo: Vec<usize>,
        /// Hexes entered, after the start.
        path: Path<HexId>,
    },
    /// The Crusades 5.5, 12.3: blockade; may not move.
    Blockade,
    /// The Crusades 5.8: no order.
    NoOrder,
}

/// One seat's orders of the turn: kept in the state, shown only to that seat until every
/// seat has committed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderBook {
    /// Orders by leader index.
    pub leaders: BTreeMap<usize, Order>,
    /// Orders by fleet index.
    pub fleets: BTreeMap<usize, FleetOrder>,
    /// Leaders designated in writing to command the force they are in when others of the
    /// same highest rank are with them (8.0 H).
    #[serde(default)]
    pub command: BTreeSet<usize>,
    /// Leaderless ASPs each Saracen leader takes up in his place before anything moves
    /// (6.1.2, 8.0 I).
    #[serde(default)]
    pub take: BTreeMap<usize, u16>,
    /// The loss order: leaders named to take the losses their owner distributes before the
    /// others (6.4.5 B, 9.5 D; see [`crate::attrition::spread_loss`]), in the order named.
    #[serde(default)]
    pub losses: Vec<usize>,
    /// The Crusades 9.7.6 C: prisoners moved under guard, each with the leader whose force
    /// guards him (prisoner index to guard index); see [`crate::captives::escort_phase`].
    #[serde(default)]
    pub escort: BTreeMap<usize, usize>,
    /// Whether the seat has committed.
    pub committed: bool,
}

impl OrderBook {
    /// The order a leader follows, resolving `With` chains (a leader given no order has
    /// [`Order::NoOrder`], 5.8).
    pub fn effective(&self, leader: usize) -> Order {
        let mut at = leader;
        for _ in 0..64 {
            match self.leaders.get(&at) {
                Some(Order::With { leader }) => at = *leader,
                Some(o) => return o.clone(),
                None => return Order::NoOrder,
            }
        }
        Order::NoOrder
    }

    /// The leader whose order `leader` follows (himself unless `With`).
    pub fn head(&self, leader: usize) -> usize {
        let mut at = leader;
        for _ in 0..64 {
            match self.leaders.get(&at) {
                Some(Order::With { leader }) => at = *leader,
                _ => return at,
            }
        }
        at
    }

    /// The fleet carrying `leader`, if a transport order names him.
    pub fn carrier(&self, leader: usize) -> Option<usize> {
        self.fleets.iter().find_map(|(f, o)| match o {
            FleetOrder::Transport { cargo, .. } if cargo.contains(&leader) => Some(*f),
            _ => None,
        })
    }
}
