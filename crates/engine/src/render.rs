//! A standalone SVG picture of a [`Board`]: what `crusades render` writes.
//!
//! Flat-topped hexes stand at their printed positions, filled with their terrain's colour;
//! each level of elevation darkens the hex a little more and adds one contour line inside it.
//! Each hex shows its printed id small at the top and its place name, if any, lower down.
//! Hexside features (rivers, streams, slopes, walls) are thick lines on the shared edge, roads
//! are lines between hex centres. Counters are rounded squares in their side's colour with a
//! band, name, values, markers and a small triangle pointing at the vertex they face; the
//! counters of a stack are offset a little each. A panel at the right holds the status lines
//! and a legend of the terrain and features shown.
//!
//! The output depends only on the board (no clock, no hash-map order) and all text is
//! escaped for XML.

use std::collections::BTreeMap;
use std::fmt::Write;

use hexgrid::{ColumnShove, Hex, HexId, Layout, Vertex};

use crate::board::{Board, BoardCounter, Style};

/// Distance from a hex's centre to its corners, in SVG units.
const SIZE: f64 = 36.0;
/// Side of a counter's square.
const COUNTER: f64 = 26.0;
/// How far each counter lower in a stack is shifted (right and down).
const STACK_SHIFT: f64 = 3.5;
/// Space around the map.
const MARGIN: f64 = 24.0;
/// Height of the title line.
const TITLE: f64 = 30.0;
/// Width of the status and legend panel.
const PANEL: f64 = 250.0;
/// How far below the hex centre counters sit, leaving the top of the hex to its id and name.
const COUNTER_DROP: f64 = 4.0;
/// Darkening of a hex per level of elevation (opacity of a dark overlay).
const SHADE_PER_LEVEL: f64 = 0.1;
/// The layout used when the board does not give one.
const DEFAULT_LAYOUT: Layout = Layout::new(ColumnShove::OddColumnsDown);

/// Escapes `&`, `<`, `>`, `"` and `'` for XML text and attribute values.
pub fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 forbids even escaped.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// The centre of `hex` in SVG units, before the map is moved into the picture.
fn centre(hex: Hex) -> (f64, f64) {
    hexgrid::pixel::center_pixel(hex, SIZE)
}

/// The corners of `hex`, in [`Vertex::ALL`] order (NNE first, clockwise).
fn corners(hex: Hex) -> [(f64, f64); 6] {
    hexgrid::pixel::corners(hex, SIZE)
}

/// A number for SVG: one decimal, no `-0.0`.
fn n(v: f64) -> String {
    let s = format!("{v:.1}");
    if s == "-0.0" {
        "0.0".into()
    } else {
        s
    }
}

fn points(ps: &[(f64, f64)]) -> String {
    ps.iter()
        .map(|(x, y)| format!("{},{}", n(*x), n(*y)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Colours for well-known keys when the board gives no style for them.
fn default_colour(key: &str) -> &'static str {
    let k = key.to_ascii_lowercase();
    let table: [(&str, &str); 14] = [
        ("river", "#2f6fd6"),
        ("stream", "#5fa8e8"),
        ("wadi", "#c9a66b"),
        ("slope", "#8a5a2b"),
        ("escarp", "#6b3e1e"),
        ("wall", "#4a4a4a"),
        ("road", "#7a4f2a"),
        ("track", "#a57c52"),
        ("clear", "#e8e2c4"),
        ("rough", "#c8b88a"),
        ("hill", "#c9a86a"),
        ("wood", "#7fa65a"),
        ("town", "#d9a38c"),
        ("water", "#8fc1e8"),
    ];
    table
        .iter()
        .find(|(name, _)| k.contains(name))
        .map(|(_, c)| *c)
        .unwrap_or("#d8d3c0")
}

/// A colour for a side with no style: one of a few, chosen by the name's bytes.
fn side_colour(side: &str) -> &'static str {
    const PALETTE: [&str; 6] = [
        "#b3261e", "#1f5aa6", "#2e7d32", "#6a3d9a", "#c77c02", "#37474f",
    ];
    let sum: usize = side.bytes().map(usize::from).sum();
    PALETTE[sum % PALETTE.len()]
}

/// Whether text on `colour` should be white (dark colours) rather than black; colours that
/// are not `#rgb` or `#rrggbb` count as dark.
fn is_dark(colour: &str) -> bool {
    let hex = colour.trim().trim_start_matches('#');
    let (r, g, b) = match hex.len() {
        3 => {
            let d = |i: usize| u8::from_str_radix(&hex[i..=i], 16).map(|v| v * 17);
            match (d(0), d(1), d(2)) {
                (Ok(r), Ok(g), Ok(b)) => (r, g, b),
                _ => return true,
            }
        }
        6 => {
            let d = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16);
            match (d(0), d(2), d(4)) {
                (Ok(r), Ok(g), Ok(b)) => (r, g, b),
                _ => return true,
            }
        }
        _ => return true,
    };
    let luma = 0.299 * f64::from(r) + 0.587 * f64::from(g) + 0.114 * f64::from(b);
    luma < 140.0
}

/// Looks up styles by key.
struct Styles<'a> {
    by_key: BTreeMap<&'a str, &'a Style>,
}

impl<'a> Styles<'a> {
    fn new(styles: &'a [Style]) -> Self {
        Styles {
            by_key: styles.iter().map(|s| (s.key.as_str(), s)).collect(),
        }
    }

    fn colour(&self, key: &str) -> String {
        match self.by_key.get(key) {
            Some(s) => s.colour.clone(),
            None => default_colour(key).to_string(),
        }
    }

    fn side(&self, side: &str) -> String {
        match self.by_key.get(side) {
            Some(s) => s.colour.clone(),
            None => side_colour(side).to_string(),
        }
    }

    fn name(&self, key: &str) -> String {
        match self.by_key.get(key) {
            Some(s) => s.name.clone(),
            None => key.to_string(),
        }
    }
}

/// The SVG picture of `board`: a complete, standalone document.
pub fn render_svg(board: &Board) -> String {
    let layout = board.layout.unwrap_or(DEFAULT_LAYOUT);
    let styles = Styles::new(&board.styles);
    let hex_of = |id: HexId| layout.to_hex(id);

    // Bounds of the map, from every hex's corners.
    let (mut min_x, mut min_y) = (f64::INFINITY, f64::INFINITY);
    let (mut max_x, mut max_y) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    for h in &board.hexes {
        for (x, y) in corners(hex_of(h.id)) {
            min_x = min_x.min(x);
            min_y = min_y.min(y);
            max_x = max_x.max(x);
            max_y = max_y.max(y);
        }
    }
    if board.hexes.is_empty() {
        (min_x, min_y, max_x, max_y) = (0.0, 0.0, 0.0, 0.0);
    }
    let dx = MARGIN - min_x;
    let dy = MARGIN + TITLE - min_y;
    let map_w = max_x - min_x;
    let map_h = max_y - min_y;
    let at = |id: HexId| {
        let (x, y) = centre(hex_of(id));
        (x + dx, y + dy)
    };
    let shifted = |id: HexId| -> Vec<(f64, f64)> {
        corners(hex_of(id))
            .iter()
            .map(|(x, y)| (x + dx, y + dy))
            .collect()
    };

    // The legend's contents, needed for the picture's height.
    let mut terrains: Vec<&str> = Vec::new();
    for h in &board.hexes {
        if !terrains.contains(&h.terrain.as_str()) {
            terrains.push(&h.terrain);
        }
    }
    let mut features: Vec<&str> = Vec::new();
    for f in board
        .hexsides
        .iter()
        .map(|s| s.feature.as_str())
        .chain(board.roads.iter().map(|r| r.kind.as_str()))
    {
        if !features.contains(&f) {
            features.push(f);
        }
    }
    // Legend order: the order of the board's styles, then keys without a style by name.
    let order = |keys: &mut Vec<&str>| {
        keys.sort_by_key(|k| {
            (
                board
                    .styles
                    .iter()
                    .position(|s| s.key == *k)
                    .unwrap_or(usize::MAX),
                k.to_string(),
            )
        })
    };
    order(&mut terrains);
    order(&mut features);
    let max_elevation = board.hexes.iter().map(|h| h.elevation).max().unwrap_or(0);
    let legend_lines =
        board.status.len() + terrains.len() + features.len() + usize::from(max_elevation > 0) + 3;

    let width = MARGIN * 3.0 + map_w + PANEL;
    let height =
        (MARGIN * 2.0 + TITLE + map_h).max(MARGIN * 2.0 + TITLE + 18.0 * legend_lines as f64);

    let mut s = String::new();
    let w = &mut s;
    let _ = writeln!(
        w,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" font-family="sans-serif">"#,
        n(width),
        n(height),
        n(width),
        n(height)
    );
    let _ = writeln!(w, "<title>{}</title>", xml_escape(&board.title));
    let _ = writeln!(
        w,
        r##"<rect x="0" y="0" width="{}" height="{}" fill="#f4efe1"/>"##,
        n(width),
        n(height)
    );
    let _ = writeln!(
        w,
        r##"<text x="{}" y="{}" font-size="16" font-weight="bold" fill="#2b2118">{}</text>"##,
        n(MARGIN),
        n(MARGIN + 8.0),
        xml_escape(&board.title)
    );

    // Hexes: fill, elevation shade and contours, outline.
    let _ = writeln!(w, r#"<g class="hexes">"#);
    for h in &board.hexes {
        let ps = shifted(h.id);
        let _ = writeln!(
            w,
            r##"<polygon class="hex" data-hex="{}" points="{}" fill="{}" stroke="#6d6552" stroke-width="0.8"/>"##,
            h.id,
            points(&ps),
            xml_escape(&styles.colour(&h.terrain))
        );
        if h.elevation > 0 {
            let level = f64::from(h.elevation);
            let _ = writeln!(
                w,
                r##"<polygon points="{}" fill="#3b2a14" fill-opacity="{:.2}" stroke="none"/>"##,
                points(&ps),
                (SHADE_PER_LEVEL * level).min(0.6)
            );
            let (cx, cy) = at(h.id);
            for ring in 1..=h.elevation.min(4) {
                let k = 1.0 - 0.14 * f64::from(ring);
                let inner: Vec<(f64, f64)> = ps
                    .iter()
                    .map(|(x, y)| (cx + (x - cx) * k, cy + (y - cy) * k))
                    .collect();
                let _ = writeln!(
                    w,
                    r##"<polygon class="contour" points="{}" fill="none" stroke="#7a5a30" stroke-width="0.7" stroke-opacity="0.7"/>"##,
                    points(&inner)
                );
            }
        }
    }
    let _ = writeln!(w, "</g>");

    // Roads between hex centres.
    let _ = writeln!(
        w,
        r#"<g class="roads" fill="none" stroke-linecap="round" stroke-linejoin="round">"#
    );
    for road in &board.roads {
        let ps: Vec<(f64, f64)> = road.hexes.iter().map(|&id| at(id)).collect();
        let _ = writeln!(
            w,
            r#"<polyline class="road" data-kind="{}" points="{}" stroke="{}" stroke-width="3"/>"#,
            xml_escape(&road.kind),
            points(&ps),
            xml_escape(&styles.colour(&road.kind))
        );
    }
    let _ = writeln!(w, "</g>");

    // Hexside features on the shared edge.
    let _ = writeln!(w, r#"<g class="hexsides" stroke-linecap="round">"#);
    for side in &board.hexsides {
        let (a, b) = (hex_of(side.a), hex_of(side.b));
        let Some(dir) = a.direction_to(b) else {
            continue;
        };
        let ps = shifted(side.a);
        // Side k lies between vertex k-1 and vertex k.
        let k = usize::from(dir.index());
        let (x1, y1) = ps[(k + 5) % 6];
        let (x2, y2) = ps[k];
        let _ = writeln!(
            w,
            r#"<line class="hexside" data-feature="{}" x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="5"/>"#,
            xml_escape(&side.feature),
            n(x1),
            n(y1),
            n(x2),
            n(y2),
            xml_escape(&styles.colour(&side.feature))
        );
    }
    let _ = writeln!(w, "</g>");

    // Ids and place names, above roads so that they stay readable.
    let _ = writeln!(w, r#"<g class="labels" text-anchor="middle">"#);
    let half_height = SIZE * 3f64.sqrt() / 2.0;
    for h in &board.hexes {
        let (cx, cy) = at(h.id);
        let _ = writeln!(
            w,
            r##"<text class="hex-id" x="{}" y="{}" font-size="7" fill="#4a4232">{}</text>"##,
            n(cx),
            n(cy - half_height + 9.0),
            h.id
        );
        if let Some(label) = &h.label {
            let _ = writeln!(
                w,
                r##"<text class="hex-label" x="{}" y="{}" font-size="8" font-style="italic" fill="#2b2118">{}</text>"##,
                n(cx),
                n(cy - half_height + 18.0),
                xml_escape(label)
            );
        }
    }
    let _ = writeln!(w, "</g>");

    // Counters, deepest of each stack first so that the top one is drawn last.
    let mut counters: Vec<&BoardCounter> = board.counters.iter().collect();
    counters.sort_by(|a, b| {
        (a.hex, std::cmp::Reverse(a.stack_position), &a.id).cmp(&(
            b.hex,
            std::cmp::Reverse(b.stack_position),
            &b.id,
        ))
    });
    let _ = writeln!(w, r#"<g class="counters" text-anchor="middle">"#);
    for c in counters {
        let (hx, hy) = at(c.hex);
        let shift = STACK_SHIFT * f64::from(c.stack_position);
        counter(
            w,
            c,
            &styles,
            hx + shift,
            hy + COUNTER_DROP + shift,
            hex_of(c.hex),
        );
    }
    let _ = writeln!(w, "</g>");

    // Status and legend.
    let px = MARGIN * 2.0 + map_w;
    let mut y = MARGIN + TITLE + 4.0;
    let _ = writeln!(w, r#"<g class="panel">"#);
    let _ = writeln!(
        w,
        r##"<text x="{}" y="{}" font-size="12" font-weight="bold" fill="#2b2118">Status</text>"##,
        n(px),
        n(y)
    );
    y += 18.0;
    for line in &board.status {
        let _ = writeln!(
            w,
            r##"<text class="status" x="{}" y="{}" font-size="11" fill="#2b2118">{}</text>"##,
            n(px),
            n(y),
            xml_escape(line)
        );
        y += 18.0;
    }
    y += 8.0;
    let _ = writeln!(
        w,
        r##"<text x="{}" y="{}" font-size="12" font-weight="bold" fill="#2b2118">Legend</text>"##,
        n(px),
        n(y)
    );
    y += 18.0;
    for key in &terrains {
        let _ = writeln!(
            w,
            r##"<rect class="legend-terrain" x="{}" y="{}" width="16" height="12" rx="2" fill="{}" stroke="#6d6552" stroke-width="0.8"/>"##,
            n(px),
            n(y - 10.0),
            xml_escape(&styles.colour(key))
        );
        let _ = writeln!(
            w,
            r##"<text x="{}" y="{}" font-size="11" fill="#2b2118">{}</text>"##,
            n(px + 24.0),
            n(y),
            xml_escape(&styles.name(key))
        );
        y += 18.0;
    }
    for key in &features {
        let _ = writeln!(
            w,
            r#"<line class="legend-feature" x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="4" stroke-linecap="round"/>"#,
            n(px + 1.0),
            n(y - 4.0),
            n(px + 15.0),
            n(y - 4.0),
            xml_escape(&styles.colour(key))
        );
        let _ = writeln!(
            w,
            r##"<text x="{}" y="{}" font-size="11" fill="#2b2118">{}</text>"##,
            n(px + 24.0),
            n(y),
            xml_escape(&styles.name(key))
        );
        y += 18.0;
    }
    if max_elevation > 0 {
        let _ = writeln!(
            w,
            r##"<rect x="{}" y="{}" width="16" height="12" rx="2" fill="none" stroke="#7a5a30" stroke-width="0.8"/>"##,
            n(px),
            n(y - 10.0)
        );
        let _ = writeln!(
            w,
            r##"<text x="{}" y="{}" font-size="11" fill="#2b2118">elevation: one contour per level</text>"##,
            n(px + 24.0),
            n(y)
        );
    }
    let _ = writeln!(w, "</g>");
    let _ = writeln!(w, "</svg>");
    s
}

/// Draws one counter centred at (`x`, `y`) in hex `hex`.
fn counter(w: &mut String, c: &BoardCounter, styles: &Styles, x: f64, y: f64, hex: Hex) {
    let scale = if c.kind == "marker" { 0.8 } else { 1.0 };
    let size = COUNTER * scale;
    let (left, top) = (x - size / 2.0, y - size / 2.0);
    let fill = styles.side(&c.side);
    let ink = if is_dark(&fill) { "#ffffff" } else { "#111111" };
    let _ = writeln!(
        w,
        r#"<g class="counter" data-id="{}" data-kind="{}">"#,
        xml_escape(&c.id),
        xml_escape(&c.kind)
    );
    let _ = writeln!(
        w,
        r##"<rect x="{}" y="{}" width="{}" height="{}" rx="3" fill="{}" stroke="#1a1a1a" stroke-width="0.9"{}/>"##,
        n(left),
        n(top),
        n(size),
        n(size),
        xml_escape(&fill),
        if c.kind == "marker" {
            r#" stroke-dasharray="2 1.5""#
        } else {
            ""
        }
    );
    if !c.band.is_empty() {
        let _ = writeln!(
            w,
            r#"<rect x="{}" y="{}" width="{}" height="5" fill="{}"/>"#,
            n(left + 1.0),
            n(top + 1.0),
            n(size - 2.0),
            xml_escape(&c.band)
        );
    }
    // Long text is squeezed to the counter's width: smaller type, and a text length for
    // renderers that honour it.
    let fit = |text: &str, font: f64| {
        let chars = text.chars().count() as f64;
        let room = size - 3.0;
        let font_fit = (room / (0.55 * chars.max(1.0))).clamp(3.5, font);
        if 0.55 * font_fit * chars > room {
            format!(
                r#" font-size="{}" textLength="{}" lengthAdjust="spacingAndGlyphs""#,
                n(font_fit),
                n(room)
            )
        } else {
            format!(r#" font-size="{}""#, n(font_fit))
        }
    };
    let _ = writeln!(
        w,
        r#"<text class="counter-name" x="{}" y="{}" fill="{}"{}>{}</text>"#,
        n(x),
        n(top + 13.5),
        ink,
        fit(&c.name, 6.0),
        xml_escape(&c.name)
    );
    let _ = writeln!(
        w,
        r#"<text class="counter-values" x="{}" y="{}" font-weight="bold" fill="{}"{}>{}</text>"#,
        n(x),
        n(top + size - 4.0),
        ink,
        fit(&c.values, 7.5),
        xml_escape(&c.values)
    );
    if let Some(v) = c.facing {
        facing(w, v, hex, x, y, size);
    }
    if !c.markers.is_empty() {
        let text = c.markers.join(", ");
        let _ = writeln!(
            w,
            r##"<rect x="{}" y="{}" width="{}" height="9" rx="2" fill="#fff3a8" stroke="#7a6a10" stroke-width="0.5"/>"##,
            n(left),
            n(top + size + 1.0),
            n(size)
        );
        let _ = writeln!(
            w,
            r##"<text class="counter-markers" x="{}" y="{}" fill="#3a3000"{}>{}</text>"##,
            n(x),
            n(top + size + 8.0),
            fit(&text, 6.0),
            xml_escape(&text)
        );
    }
    let _ = writeln!(w, "</g>");
}

/// A small triangle just outside the counter pointing at the vertex `v` of `hex`.
fn facing(w: &mut String, v: Vertex, hex: Hex, x: f64, y: f64, size: f64) {
    let (cx, cy) = centre(hex);
    let (vx, vy) = corners(hex)[usize::from(v.index())];
    let (ux, uy) = ((vx - cx) / SIZE, (vy - cy) / SIZE);
    // Perpendicular, for the base.
    let (px, py) = (-uy, ux);
    let base = size / 2.0 + 1.0;
    let tip = (x + ux * (base + 6.0), y + uy * (base + 6.0));
    let b1 = (x + ux * base + px * 4.0, y + uy * base + py * 4.0);
    let b2 = (x + ux * base - px * 4.0, y + uy * base - py * 4.0);
    let _ = writeln!(
        w,
        r##"<polygon class="facing" data-vertex="{}" points="{}" fill="#1a1a1a" stroke="#ffffff" stroke-width="0.6"/>"##,
        v,
        points(&[tip, b1, b2])
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{BoardHex, BoardHexside, BoardRoad};

    fn id(s: &str) -> HexId {
        s.parse().unwrap()
    }

    /// Parses the whole document, failing on any XML error; returns the element names.
    fn elements(svg: &str) -> Vec<String> {
        let mut reader = quick_xml::Reader::from_str(svg);
        let mut names = Vec::new();
        let mut depth = 0i32;
        loop {
            match reader.read_event() {
                Ok(quick_xml::events::Event::Start(e)) => {
                    depth += 1;
                    names.push(String::from_utf8(e.name().as_ref().to_vec()).unwrap());
                }
                Ok(quick_xml::events::Event::Empty(e)) => {
                    names.push(String::from_utf8(e.name().as_ref().to_vec()).unwrap());
                }
                Ok(quick_xml::events::Event::End(_)) => depth -= 1,
                Ok(quick_xml::events::Event::Text(t)) => {
                    t.unescape().expect("text unescapes");
                }
                Ok(quick_xml::events::Event::Eof) => break,
                Ok(_) => {}
                Err(e) => panic!("not well-formed at {}: {e}", reader.buffer_position()),
            }
        }
        assert_eq!(depth, 0, "every element is closed");
        names
    }

    fn board() -> Board {
        Board {
            title: "Hattin <& \"Horns\">".into(),
            layout: Some(Layout::new(ColumnShove::OddColumnsDown)),
            hexes: vec![
                BoardHex {
                    id: id("0101"),
                    terrain: "clear".into(),
                    elevation: 0,
                    label: Some("Lubiya & <Well>".into()),
                },
                BoardHex {
                    id: id("0201"),
                    terrain: "hill".into(),
                    elevation: 2,
                    label: None,
                },
                BoardHex {
                    id: id("0102"),
                    terrain: "clear".into(),
                    elevation: 1,
                    label: None,
                },
            ],
            hexsides: vec![
                BoardHexside {
                    a: id("0101"),
                    b: id("0102"),
                    feature: "river".into(),
                },
                BoardHexside {
                    a: id("0101"),
                    b: id("0909"),
                    feature: "wall".into(),
                },
            ],
            roads: vec![BoardRoad {
                kind: "road".into(),
                hexes: vec![id("0101"), id("0201")],
            }],
            counters: vec![
                BoardCounter {
                    id: "ray".into(),
                    hex: id("0101"),
                    side: "Crusaders".into(),
                    name: "Raymond of Tripoli".into(),
                    values: "6*-5-4".into(),
                    facing: Some(Vertex::SSE),
                    markers: vec!["Rout".into(), "<OC>".into()],
                    stack_position: 0,
                    kind: "leader".into(),
                    band: "#ffffff".into(),
                },
                BoardCounter {
                    id: "kt".into(),
                    hex: id("0101"),
                    side: "Crusaders".into(),
                    name: "Templars".into(),
                    values: "7-4".into(),
                    facing: None,
                    markers: Vec::new(),
                    stack_position: 1,
                    kind: "unit".into(),
                    band: "#000000".into(),
                },
            ],
            styles: vec![
                Style {
                    key: "hill".into(),
                    name: "Hill".into(),
                    colour: "#c9a86a".into(),
                },
                Style {
                    key: "clear".into(),
                    name: "Clear & open".into(),
                    colour: "#eeeecc".into(),
                },
                Style {
                    key: "Crusaders".into(),
                    name: "Crusaders".into(),
                    colour: "#f0f0f0".into(),
                },
            ],
            status: vec!["Turn 3 <Day>".into(), "Pending: Saladin".into()],
        }
    }

    #[test]
    fn the_picture_is_well_formed_and_has_every_part() {
        let svg = render_svg(&board());
        let names = elements(&svg);
        let count = |n: &str| names.iter().filter(|x| *x == n).count();
        assert_eq!(names[0], "svg");
        assert!(svg.contains(r#"xmlns="http://www.w3.org/2000/svg""#));
        assert_eq!(svg.matches(r#"class="hex""#).count(), 3);
        assert_eq!(
            svg.matches(r#"class="contour""#).count(),
            3,
            "levels 2 and 1"
        );
        assert_eq!(
            svg.matches(r#"class="hexside""#).count(),
            1,
            "the wall is not a hexside"
        );
        assert_eq!(svg.matches(r#"class="road""#).count(), 1);
        assert_eq!(svg.matches(r#"class="counter""#).count(), 2);
        assert_eq!(svg.matches(r#"class="facing""#).count(), 1);
        assert!(count("polygon") >= 3 + 3 + 1 + 2);
        for id in ["0101", "0201", "0102"] {
            assert!(
                svg.contains(&format!(">{id}</text>")),
                "hex id {id} printed"
            );
        }
        // Legend: both terrains with their names, the river with its default colour.
        assert!(svg.contains(">Clear &amp; open</text>"));
        assert!(svg.contains(">Hill</text>"));
        assert!(svg.contains(r##"stroke="#2f6fd6""##));
        assert!(svg.contains("elevation: one contour per level"));
        // The stack: the deeper counter is drawn first and shifted.
        assert!(svg.find(r#"data-id="kt""#).unwrap() < svg.find(r#"data-id="ray""#).unwrap());
        // The light side colour gets dark ink.
        assert!(svg.contains(r##"fill="#111111""##));
    }

    #[test]
    fn text_is_escaped() {
        let svg = render_svg(&board());
        assert!(svg.contains("<title>Hattin &lt;&amp; &quot;Horns&quot;&gt;</title>"));
        assert!(svg.contains(">Lubiya &amp; &lt;Well&gt;</text>"));
        assert!(svg.contains(">Rout, &lt;OC&gt;</text>"));
        assert!(svg.contains(">Turn 3 &lt;Day&gt;</text>"));
        assert!(!svg.contains("<OC>") && !svg.contains("<Well>") && !svg.contains("<Day>"));
        assert_eq!(xml_escape("a'b\u{1}"), "a&apos;b\u{fffd}");
    }

    #[test]
    fn the_facing_triangle_points_at_its_vertex() {
        let svg = render_svg(&board());
        let start = svg.find(r#"data-vertex="SSE" points=""#).unwrap() + 26;
        let pts: Vec<f64> = svg[start..]
            .split('"')
            .next()
            .unwrap()
            .split([' ', ','])
            .map(|v| v.parse().unwrap())
            .collect();
        let (tip, base) = (
            (pts[0], pts[1]),
            ((pts[2] + pts[4]) / 2.0, (pts[3] + pts[5]) / 2.0),
        );
        // SSE is down and to the right of the centre: the tip is further that way.
        assert!(tip.0 > base.0 && tip.1 > base.1, "{pts:?}");
    }

    #[test]
    fn the_output_is_deterministic_and_an_empty_board_renders() {
        assert_eq!(render_svg(&board()), render_svg(&board()));
        let svg = render_svg(&Board::default());
        elements(&svg);
        assert!(svg.starts_with("<svg"));
    }

    #[test]
    fn dark_colours_get_white_ink() {
        assert!(is_dark("#123"));
        assert!(is_dark("#b3261e"));
        assert!(!is_dark("#f0f0f0"));
        assert!(!is_dark("#ff0"));
        assert!(is_dark("crimson"));
    }
}
