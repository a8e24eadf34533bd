//! The picture of `crusades simulate --plot`: a standalone SVG, written by hand, with the
//! outcomes of the games (by winner and level of victory, draws, unfinished) on the left and
//! the histogram of game lengths on the right; or the same drawn as a PNG ([`png`]), its text
//! in the DejaVu Sans font built into the program (assets/, with its licence), so that the
//! picture is the same on every machine.

use std::fmt::Write;
use std::path::Path;

use registry::Summary;

const WIDTH: f64 = 960.0;
const HEIGHT: f64 = 440.0;
/// The top of both panels.
const TOP: f64 = 90.0;
/// The bottom of both panels' plotting areas.
const BOTTOM: f64 = 380.0;
/// One colour per seat, in seat order (then again).
const SEAT_COLOURS: [&str; 6] = [
    "#b71c1c", "#1565c0", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f",
];
const DRAW_COLOUR: &str = "#9e9e9e";
const UNFINISHED_COLOUR: &str = "#d7ccc8";
const BAR_COLOUR: &str = "#5d4037";

/// The font of a PNG plot's text (DejaVu Sans; licence in assets/DejaVuSans-LICENSE.txt).
const FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");

/// What a plot is written as, by the ending of its file's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `.svg`: the SVG text.
    Svg,
    /// `.png`: the SVG drawn to pixels.
    Png,
}

impl Format {
    /// The format of a plot written to `path`: `.svg` or `.png` (in any case); anything
    /// else is an error naming both.
    pub fn of(path: &Path) -> Result<Format, String> {
        let ending = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ending.as_deref() {
            Some("svg") => Ok(Format::Svg),
            Some("png") => Ok(Format::Png),
            _ => Err(format!(
                "--plot {}: the file's name must end in .svg or .png (the format written)",
                path.display()
            )),
        }
    }
}

/// The plot of a summary in `format`, as the bytes of its file.
pub fn picture(s: &Summary, format: Format) -> Result<Vec<u8>, String> {
    let svg = svg(s);
    match format {
        Format::Svg => Ok(svg.into_bytes()),
        Format::Png => png(&svg),
    }
}

/// An SVG picture drawn as a PNG at its own size, its text in [`FONT`] whatever the font
/// families it names.
pub fn png(svg: &str) -> Result<Vec<u8>, String> {
    use resvg::{tiny_skia, usvg};
    let mut options = usvg::Options {
        font_family: "DejaVu Sans".into(),
        ..usvg::Options::default()
    };
    let fonts = options.fontdb_mut();
    fonts.load_font_data(FONT.to_vec());
    fonts.set_sans_serif_family("DejaVu Sans");
    fonts.set_serif_family("DejaVu Sans");
    fonts.set_monospace_family("DejaVu Sans");
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| format!("the plot's SVG: {e}"))?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| format!("the plot's size {size:?} cannot be drawn"))?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|e| format!("the plot as PNG: {e}"))
}

/// Text made safe for SVG.
fn esc(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The plot of a summary, as SVG text.
pub fn svg(s: &Summary) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="13">"#
    );
    let _ = writeln!(
        out,
        r##"<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#fffdf7"/>"##
    );
    let title = format!(
        "{}{}: {} games, seed {}",
        s.scenario,
        if s.options.is_empty() {
            String::new()
        } else {
            format!(" ({})", s.options.join(", "))
        },
        s.games,
        s.seed
    );
    let players = s
        .seats
        .iter()
        .map(|x| format!("{} {}", x.seat, x.player))
        .collect::<Vec<_>>()
        .join(" vs ");
    let _ = writeln!(
        out,
        r#"<text x="20" y="30" font-size="18" font-weight="bold">{}</text>"#,
        esc(&title)
    );
    let _ = writeln!(out, r#"<text x="20" y="52">{}</text>"#, esc(&players));
    outcomes(&mut out, s);
    lengths(&mut out, s);
    out.push_str("</svg>\n");
    out
}

/// The left panel: one horizontal bar per way the games ended.
fn outcomes(out: &mut String, s: &Summary) {
    let seat_index = |name: &str| s.seats.iter().position(|x| x.seat == name);
    let mut rows: Vec<(String, u64, &str)> = s
        .outcomes
        .iter()
        .map(|o| match &o.winner {
            Some(w) => (
                match &o.level {
                    Some(l) => format!("{w} ({l})"),
                    None => format!("{w} wins"),
                },
                o.games,
                SEAT_COLOURS[seat_index(w).unwrap_or(0) % SEAT_COLOURS.len()],
            ),
            None => ("draw".to_string(), o.games, DRAW_COLOUR),
        })
        .collect();
    if s.unfinished > 0 {
        rows.push(("unfinished".into(), s.unfinished, UNFINISHED_COLOUR));
    }
    let _ = writeln!(
        out,
        r#"<text x="20" y="{}" font-weight="bold">Outcomes</text>"#,
        TOP - 12.0
    );
    let (label_x, bar_x, bar_max) = (20.0, 190.0, 200.0);
    let most = rows.iter().map(|r| r.1).max().unwrap_or(1).max(1) as f64;
    let step = ((BOTTOM - TOP) / rows.len().max(1) as f64).min(34.0);
    let height = step * 0.7;
    for (i, (label, games, colour)) in rows.iter().enumerate() {
        let y = TOP + i as f64 * step;
        let w = bar_max * *games as f64 / most;
        let share = if s.games == 0 {
            0.0
        } else {
            100.0 * *games as f64 / s.games as f64
        };
        let _ = writeln!(
            out,
            r#"<text x="{label_x}" y="{:.1}">{}</text>"#,
            y + height * 0.75,
            esc(label)
        );
        let _ = writeln!(
            out,
            r#"<rect class="outcome" x="{bar_x}" y="{y:.1}" width="{w:.1}" height="{height:.1}" fill="{colour}"/>"#
        );
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{:.1}">{games} ({share:.1}%)</text>"#,
            bar_x + w + 6.0,
            y + height * 0.75
        );
    }
    // Each seat's share of wins with its 95% interval, below the bars.
    let lines: Vec<String> = s
        .seats
        .iter()
        .map(|x| (format!("{} wins", x.seat), &x.wins))
        .chain([("draws".to_string(), &s.draws)])
        .map(|(what, p)| {
            format!(
                "{what}: {:.1}% (95% CI {:.1}-{:.1}%)",
                100.0 * p.rate,
                100.0 * p.low,
                100.0 * p.high
            )
        })
        .collect();
    for (i, line) in lines.iter().enumerate() {
        let y = BOTTOM + 18.0 * (i as f64 + 1.0) - 18.0 * lines.len() as f64 + 30.0;
        let _ = writeln!(
            out,
            r##"<text class="rate" x="{label_x}" y="{y:.1}" fill="#444">{}</text>"##,
            esc(line)
        );
    }
}

/// The right panel: the histogram of game lengths, with the mean marked.
fn lengths(out: &mut String, s: &Summary) {
    let (left, right) = (520.0, 930.0);
    let l = &s.length;
    let _ = writeln!(
        out,
        r#"<text x="{left}" y="{}" font-weight="bold">Game length (actions): mean {:.1}, median {}</text>"#,
        TOP - 12.0,
        l.mean,
        l.median
    );
    let _ = writeln!(
        out,
        r##"<path d="M{left} {TOP} V{BOTTOM} H{right}" fill="none" stroke="#333"/>"##
    );
    let bins = &l.histogram;
    if bins.is_empty() {
        return;
    }
    let most = bins.iter().map(|b| b.games).max().unwrap_or(1).max(1) as f64;
    let span = (right - left) / bins.len() as f64;
    for (i, b) in bins.iter().enumerate() {
        let h = (BOTTOM - TOP - 10.0) * b.games as f64 / most;
        let x = left + i as f64 * span;
        let _ = writeln!(
            out,
            r#"<rect class="bin" x="{:.1}" y="{:.1}" width="{:.1}" height="{h:.1}" fill="{BAR_COLOUR}"><title>{}-{}: {} games</title></rect>"#,
            x + 1.0,
            BOTTOM - h,
            (span - 2.0).max(1.0),
            b.from,
            b.to,
            b.games
        );
    }
    let first = &bins[0];
    let last = &bins[bins.len() - 1];
    let _ = writeln!(
        out,
        r#"<text x="{left}" y="{}">{}</text>"#,
        BOTTOM + 18.0,
        first.from
    );
    let _ = writeln!(
        out,
        r#"<text x="{right}" y="{}" text-anchor="end">{}</text>"#,
        BOTTOM + 18.0,
        last.to
    );
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
        left - 6.0,
        TOP + 14.0,
        most as u64
    );
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" text-anchor="end">games</text>"#,
        left - 6.0,
        TOP + 30.0
    );
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" text-anchor="middle">actions per game</text>"#,
        (left + right) / 2.0,
        BOTTOM + 36.0
    );
    // The mean, on the scale of the bins.
    let range = (last.to + 1 - first.from) as f64;
    let x = left + (right - left) * (l.mean - first.from as f64) / range;
    let _ = writeln!(
        out,
        r##"<path class="mean" d="M{x:.1} {TOP} V{BOTTOM}" stroke="#c62828" stroke-dasharray="5 4"/>"##
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use registry::{Bin, Length, OutcomeCount, Proportion, SeatSummary, Summary};

    fn summary() -> Summary {
        let p = |c| Proportion::wilson(c, 10);
        Summary {
            scenario: "x/y".into(),
            options: vec!["a&b".into()],
            seed: 3,
            games: 10,
            max_actions: 100,
            deterministic: true,
            seats: vec![
                SeatSummary {
                    seat: "East <1>".into(),
                    player: "random".into(),
                    wins: p(6),
                },
                SeatSummary {
                    seat: "West".into(),
                    player: "mcts:10".into(),
                    wins: p(3),
                },
            ],
            draws: p(0),
            unfinished: 1,
            outcomes: vec![
                OutcomeCount {
                    winner: Some("East <1>".into()),
                    level: Some("decisive".into()),
                    games: 6,
                },
                OutcomeCount {
                    winner: Some("West".into()),
                    level: None,
                    games: 3,
                },
            ],
            length: Length {
                mean: 15.5,
                min: 10,
                median: 14,
                max: 25,
                histogram: vec![
                    Bin {
                        from: 10,
                        to: 17,
                        games: 7,
                    },
                    Bin {
                        from: 18,
                        to: 25,
                        games: 3,
                    },
                ],
            },
            stats: Vec::new(),
        }
    }

    #[test]
    fn the_plot_is_well_formed_with_a_bar_per_outcome_and_bin() {
        let text = svg(&summary());
        let mut reader = quick_xml::Reader::from_str(&text);
        let mut depth = 0i32;
        loop {
            match reader.read_event() {
                Ok(quick_xml::events::Event::Start(_)) => depth += 1,
                Ok(quick_xml::events::Event::End(_)) => depth -= 1,
                Ok(quick_xml::events::Event::Eof) => break,
                Ok(_) => {}
                Err(e) => panic!("not well formed: {e}\n{text}"),
            }
        }
        assert_eq!(depth, 0);
        assert!(text.starts_with("<svg"));
        assert_eq!(
            text.matches(r#"class="outcome""#).count(),
            3,
            "two outcomes and unfinished"
        );
        assert_eq!(text.matches(r#"class="bin""#).count(), 2);
        assert!(text.contains("East &lt;1&gt; (decisive)"));
        assert!(text.contains("x/y (a&amp;b): 10 games, seed 3"));
        assert!(text.contains("6 (60.0%)"));
        assert!(text.contains(r#"class="mean""#));
        assert_eq!(
            text.matches(r#"class="rate""#).count(),
            3,
            "two seats and draws"
        );
        assert!(text.contains("West wins: 30.0% (95% CI "));
    }
}
