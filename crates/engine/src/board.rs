//! A game-agnostic picture of the map and the counters on it, as one viewer sees it: what
//! renderers (the SVG of `crusades render`, the web client) draw. Rules never read it.

use hexgrid::{HexId, Layout, Vertex};
use serde::{Deserialize, Serialize};

/// The map and counters as one viewer sees them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Board {
    /// The scenario's title.
    pub title: String,
    /// How printed ids map to hexes.
    pub layout: Option<Layout>,
    /// Every hex of the map.
    pub hexes: Vec<BoardHex>,
    /// Hexsides with features (rivers, streams, slopes, walls).
    pub hexsides: Vec<BoardHexside>,
    /// Roads and tracks, each a chain of hexes.
    pub roads: Vec<BoardRoad>,
    /// Counters on the map.
    pub counters: Vec<BoardCounter>,
    /// How to paint each terrain and feature key.
    pub styles: Vec<Style>,
    /// Lines of status: turn, phase, whose decision.
    pub status: Vec<String>,
}

/// One hex of the map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoardHex {
    /// The printed id.
    pub id: HexId,
    /// The terrain key (a style key).
    pub terrain: String,
    /// Elevation level (0 = lowest).
    pub elevation: i8,
    /// A name printed on the map, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// A hexside with a feature.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoardHexside {
    /// One hex of the side.
    pub a: HexId,
    /// The other hex of the side.
    pub b: HexId,
    /// The feature key (a style key).
    pub feature: String,
}

/// A road or track.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoardRoad {
    /// The feature key (a style key).
    pub kind: String,
    /// The hexes it runs through, in order.
    pub hexes: Vec<HexId>,
}

/// A counter as the viewer sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoardCounter {
    /// A stable id for the counter (for clients).
    pub id: String,
    /// The hex it is in.
    pub hex: HexId,
    /// The seat name of its owner.
    pub side: String,
    /// Its name, as printed.
    pub name: String,
    /// Its values line, as printed ("6*-5-4").
    pub values: String,
    /// The vertex it faces, if it has facing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<Vertex>,
    /// Markers on it ("Rout", "OC", "Berserk").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<String>,
    /// Position in its stack, 0 = top.
    pub stack_position: u8,
    /// `unit`, `leader` or `marker`.
    pub kind: String,
    /// A colour band, as a CSS colour.
    pub band: String,
}

/// How to paint a terrain or feature key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Style {
    /// The key.
    pub key: String,
    /// A human name for legends.
    pub name: String,
    /// A CSS colour.
    pub colour: String,
}
