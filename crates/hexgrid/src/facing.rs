//! Facing arcs: which of a hex's sides are front, flank or rear for a unit facing a vertex.

use serde::{Deserialize, Serialize};

use crate::{Direction, Vertex};

/// The arc a hexside belongs to, relative to a unit's facing vertex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Arc {
    /// The two sides meeting at the facing vertex.
    Front,
    /// The two sides between front and rear.
    Flank,
    /// The two sides meeting at the vertex opposite the facing vertex.
    Rear,
}

/// The arc of `side` for a unit in a hex facing vertex `facing`.
///
/// With `facing` = vertex `k`: sides `k`, `k+1` are [`Arc::Front`], `k+3`, `k+4` are
/// [`Arc::Rear`], and `k+2`, `k+5` are [`Arc::Flank`].
#[inline]
pub const fn facing_arc(facing: Vertex, side: Direction) -> Arc {
    match (side.index() + 6 - facing.index()) % 6 {
        0 | 1 => Arc::Front,
        3 | 4 => Arc::Rear,
        _ => Arc::Flank,
    }
}

impl Vertex {
    /// The arc of `side` for a unit facing this vertex; same as [`facing_arc`].
    #[inline]
    pub const fn arc_of(self, side: Direction) -> Arc {
        facing_arc(self, side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arcs_for_nne() {
        use Direction::*;
        let f = Vertex::NNE;
        assert_eq!(facing_arc(f, N), Arc::Front);
        assert_eq!(facing_arc(f, NE), Arc::Front);
        assert_eq!(facing_arc(f, SE), Arc::Flank);
        assert_eq!(facing_arc(f, S), Arc::Rear);
        assert_eq!(facing_arc(f, SW), Arc::Rear);
        assert_eq!(facing_arc(f, NW), Arc::Flank);
    }

    #[test]
    fn every_facing_has_two_of_each() {
        for v in Vertex::ALL {
            let arcs: Vec<Arc> = Direction::ALL.iter().map(|&d| v.arc_of(d)).collect();
            for a in [Arc::Front, Arc::Flank, Arc::Rear] {
                assert_eq!(arcs.iter().filter(|&&x| x == a).count(), 2, "{v}");
            }
            for d in v.sides() {
                assert_eq!(facing_arc(v, d), Arc::Front);
            }
            for d in v.opposite().sides() {
                assert_eq!(facing_arc(v, d), Arc::Rear);
            }
            // Rotating both facing and side leaves the arc unchanged.
            for d in Direction::ALL {
                assert_eq!(facing_arc(v, d), facing_arc(v.rotate(2), d.rotate(2)));
            }
        }
    }
}
