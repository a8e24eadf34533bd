//! Game-agnostic geometry for flat-topped hex maps printed with vertical columns.
//!
//! * [`Hex`]: axial coordinates `(q, r)`, distance and neighbours.
//! * [`Direction`] (the six sides) and [`Vertex`] (the six corners), with facing arcs
//!   ([`facing_arc`]).
//! * [`HexId`] and [`Layout`]: the printed four-digit ids ("1110") and their mapping to
//!   axial coordinates; [`Grid`] and [`HexMap`] for dense per-map storage.
//! * [`Hexside`]: canonical ids for the edges between hexes.
//! * [`line_between`]: exact line of sight.
//! * [`search`] and [`field_of_movement`]: deterministic Dijkstra for movement.
//! * [`pixel`]: screen geometry for renderers.
//!
//! The crate knows nothing about terrain or game rules; callers supply costs and blocking
//! through closures. See the crate README for the coordinate conventions.
//!
//! ```
//! use hexgrid::{field_of_movement, line_between, ColumnShove, HexId, Layout, LosCell};
//!
//! let layout = Layout::new(ColumnShove::OddColumnsDown);
//! let a = layout.to_hex("1110".parse::<HexId>().unwrap());
//! let b = layout.to_hex("1310".parse::<HexId>().unwrap());
//! assert_eq!(a.distance(b), 2);
//!
//! // 1110 -> 1310 runs exactly along the hexside between 1210 and 1211.
//! let cells = line_between(a, b);
//! assert!(matches!(cells.as_slice(), [LosCell::Hexside(_, _)]));
//!
//! // Every step costs 2 half-MPs; with 4 half-MPs the unit reaches 1 + 6 + 12 hexes.
//! let field = field_of_movement(a, 4, |_from, _to| Some(2));
//! assert_eq!(field.len(), 19);
//! assert_eq!(field.cost(&b), Some(4));
//! ```

#![warn(missing_docs)]

mod coord;
mod direction;
mod error;
mod facing;
mod grid;
mod hexmap;
mod hexside;
mod id;
mod layout;
mod los;
pub mod pixel;
mod search;
mod vertex;

pub use coord::Hex;
pub use direction::Direction;
pub use error::ParseError;
pub use facing::{facing_arc, Arc};
pub use grid::Grid;
pub use hexmap::HexMap;
pub use hexside::Hexside;
pub use id::HexId;
pub use layout::{ColumnShove, Layout};
pub use los::{line_between, LosCell};
pub use search::{field_of_movement, search, Iter, Reached};
pub use vertex::Vertex;
