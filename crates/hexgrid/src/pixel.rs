//! Floating-point screen geometry for renderers: hex centres, corners and picking, for
//! flat-topped hexes with `x` to the east and `y` to the south (screen convention).
//!
//! `size` is the distance from a hex's centre to each corner (the side length). Hex
//! [`Hex::ORIGIN`] is centred on `(0, 0)`; add your own offset for the map's margin.

use crate::{Direction, Hex, Vertex};

const SQRT_3: f64 = 1.732_050_807_568_877_2;

/// Unit-size corner offsets from the centre, in [`Vertex::ALL`] order.
const CORNERS: [(f64, f64); 6] = [
    (0.5, -SQRT_3 / 2.0),  // NNE
    (1.0, 0.0),            // E
    (0.5, SQRT_3 / 2.0),   // SSE
    (-0.5, SQRT_3 / 2.0),  // SSW
    (-1.0, 0.0),           // W
    (-0.5, -SQRT_3 / 2.0), // NNW
];

/// Pixel position of the centre of `hex` (`y` grows southward).
#[inline]
pub fn center_pixel(hex: Hex, size: f64) -> (f64, f64) {
    let q = f64::from(hex.q);
    let r = f64::from(hex.r);
    (size * 1.5 * q, size * SQRT_3 * (r + q / 2.0))
}

/// The six corners of `hex`, in [`Vertex::ALL`] order (NNE, E, SSE, SSW, W, NNW).
#[inline]
pub fn corners(hex: Hex, size: f64) -> [(f64, f64); 6] {
    let (cx, cy) = center_pixel(hex, size);
    CORNERS.map(|(dx, dy)| (cx + dx * size, cy + dy * size))
}

/// Pixel position of one corner of `hex`.
#[inline]
pub fn corner(hex: Hex, vertex: Vertex, size: f64) -> (f64, f64) {
    let (cx, cy) = center_pixel(hex, size);
    let (dx, dy) = CORNERS[vertex.index() as usize];
    (cx + dx * size, cy + dy * size)
}

/// Midpoint of the side `dir` of `hex` (where the hexside meets the line between centres).
#[inline]
pub fn side_midpoint(hex: Hex, dir: Direction, size: f64) -> (f64, f64) {
    let (ax, ay) = center_pixel(hex, size);
    let (bx, by) = center_pixel(hex.neighbour(dir), size);
    ((ax + bx) / 2.0, (ay + by) / 2.0)
}

/// The hex containing pixel `(x, y)` (for mouse picking); points on a boundary go to
/// either neighbour.
pub fn pixel_to_hex(x: f64, y: f64, size: f64) -> Hex {
    let q = (2.0 / 3.0) * x / size;
    let r = (-x / 3.0 + SQRT_3 / 3.0 * y) / size;
    let s = -q - r;
    let (mut rq, mut rr, rs) = (q.round(), r.round(), s.round());
    let (eq, er, es) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
    if eq > er && eq > es {
        rq = -rr - rs;
    } else if er > es {
        rr = -rq - rs;
    }
    Hex::new(rq as i32, rr as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: (f64, f64), b: (f64, f64)) -> bool {
        (a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9
    }

    #[test]
    fn neighbour_centres() {
        let s = 10.0;
        let o = center_pixel(Hex::ORIGIN, s);
        assert_eq!(o, (0.0, 0.0));
        let n = center_pixel(Hex::ORIGIN.neighbour(Direction::N), s);
        assert!(close(n, (0.0, -s * SQRT_3)));
        let se = center_pixel(Hex::ORIGIN.neighbour(Direction::SE), s);
        assert!(se.0 > 0.0 && se.1 > 0.0);
        for d in Direction::ALL {
            let (x, y) = center_pixel(Hex::ORIGIN.neighbour(d), s);
            assert!(((x * x + y * y).sqrt() - s * SQRT_3).abs() < 1e-9);
        }
    }

    #[test]
    fn corners_match_vertices_and_are_shared() {
        let s = 3.0;
        let h = Hex::new(2, -1);
        let c = corners(h, s);
        for v in Vertex::ALL {
            assert!(close(c[v.index() as usize], corner(h, v, s)));
            // The corner between sides k and k+1 is also a corner of both neighbours there.
            for d in v.sides() {
                let nc = corners(h.neighbour(d), s);
                assert!(
                    nc.iter().any(|&p| close(p, c[v.index() as usize])),
                    "{v} {d}"
                );
            }
        }
        // Side midpoints lie halfway between the side's two corners.
        for d in Direction::ALL {
            let a = c[d.rotate(-1).index() as usize];
            let b = c[d.index() as usize];
            assert!(close(
                side_midpoint(h, d, s),
                ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
            ));
        }
        assert!(c[Vertex::NNE.index() as usize].1 < c[Vertex::SSE.index() as usize].1);
    }

    #[test]
    fn picking_round_trips() {
        let s = 7.5;
        for h in Hex::new(3, -4).within(4) {
            let (x, y) = center_pixel(h, s);
            assert_eq!(pixel_to_hex(x, y, s), h);
            assert_eq!(pixel_to_hex(x + 0.4 * s, y - 0.3 * s, s), h);
        }
    }
}
