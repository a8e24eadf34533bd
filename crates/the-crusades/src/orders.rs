//! Orders (5.0): everything a side does is written beforehand, in secret. Each seat writes
//! one order per leader (5.0 B, 8.0) and per fleet as a series of small actions, then
//! commits; nothing of a seat's orders reaches another seat until every seat has committed
//! (the view in [`crate::view`] shows a seat only its own book). The design, and how the
//! First Crusade's bribes, treasuries and treachery will join it, is in
//! `docs/the-crusades/orders.md`.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use hexgrid::HexId;
use serde::{Deserialize, Serialize};

use crate::map::Place;

/// A written path: the places or hexes entered, in order. Shared, so that the many listed
/// orders following the searched paths cost no copy of them; written like a list.
pub type Path<T> = Arc<[T]>;

/// Reads and writes a [`Path`] as a plain list.
mod path_serde {
    use std::sync::Arc;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer, T: Serialize>(
        path: &Arc<[T]>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        path.as_ref().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
        d: D,
    ) -> Result<Arc<[T]>, D::Error> {
        Vec::<T>::deserialize(d).map(Arc::from)
    }
}

/// A land order for one leader and the ASPs with him.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Order {
    /// The Crusades 5.1: move along a path (the places entered, in order), leaving `leave`
    /// of a Saracen leader's ASPs behind (6.1.2 B).
    Move {
        /// Places entered, after the start.
        #[serde(with = "path_serde")]
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
        #[serde(with = "path_serde")]
        path: Path<HexId>,
    },
    /// The Crusades 5.2, 12.5: move and transport these leaders (with their ASPs).
    Transport {
        /// The leaders carried.
        cargo: Vec<usize>,
        /// Hexes entered, after the start.
        #[serde(with = "path_serde")]
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
